import type { Env } from '#lib/config';
import { localStackEnvironment } from '../../../platform/local-stack/local-stack-environment.js';

/** The local stack's default ports (scripts/local-stack/services.mjs). */
const LOCAL_STACK_PORTS = { catalog: 4010, shopify: 4020, connector: 3000 } as const;

const given = (env: Env, name: string): boolean => env[name] !== undefined && env[name] !== '';

/**
 * The environment the command line reads its configuration from: the user's own, or, when no
 * shop is configured (`CONNECTOR_SHOPS` and `CONNECTOR_SHOPIFY_INSTALLS` unset), the local stack's environment (`npm start`: the
 * demo shop against the catalog sandbox's seeded account, on `CATALOG_SANDBOX_PORT`,
 * `SHOPIFY_SANDBOX_PORT` and `PORT` or their defaults), so `npm run connector -- status 123`
 * works against a running `npm start`. The user's variables win either way, as in the stack.
 */
export function cliEnvironment(env: Env): Env {
  if (given(env, 'CONNECTOR_SHOPS') || given(env, 'CONNECTOR_SHOPIFY_INSTALLS')) return env;
  const port = (name: string, fallback: number) => (given(env, name) ? Number(env[name]) : fallback);
  const stack = localStackEnvironment({
    catalogUrl: `http://127.0.0.1:${port('CATALOG_SANDBOX_PORT', LOCAL_STACK_PORTS.catalog)}`,
    shopifyUrl: `http://127.0.0.1:${port('SHOPIFY_SANDBOX_PORT', LOCAL_STACK_PORTS.shopify)}`,
    port: port('PORT', LOCAL_STACK_PORTS.connector),
  });
  // A token file of the user's replaces the stack's public token (both set is a config error).
  if (given(env, 'CONNECTOR_ADMIN_TOKEN_FILE')) delete stack.CONNECTOR_ADMIN_TOKEN;
  const own = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  return { ...stack, ...own };
}
