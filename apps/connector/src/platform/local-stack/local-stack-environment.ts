import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The local stack's mapping, relative to the repository's root. */
const DEMO_MAPPING = join('apps', 'connector', 'mappings', 'demo.yaml');

/**
 * The absolute path of `apps/connector/mappings/demo.yaml`: the nearest ancestor of this module
 * that holds it (the repository root, from `src/` in tests or from `dist/` under `npm start`).
 */
export function demoMappingPath(from: string = fileURLToPath(import.meta.url)): string {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    const candidate = join(dir, DEMO_MAPPING);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error(`${DEMO_MAPPING} not found above ${from}`);
  }
}

/** Where the local stack's services listen. */
export interface LocalStackUrls {
  /** The catalog sandbox, e.g. `http://127.0.0.1:4010`. */
  catalogUrl: string;
  /** The Shopify sandbox, e.g. `http://127.0.0.1:4020`. */
  shopifyUrl: string;
  /** The connector's port (default 3000). */
  port?: number;
}

/** The local stack's admin token (`Authorization: Bearer connector-admin-token`): public, local use only. */
export const LOCAL_STACK_ADMIN_TOKEN = 'connector-admin-token';

/** The Shopify sandbox's default app (distribution `organization`): the demo shop's client credentials. */
export const LOCAL_STACK_APP = {
  clientId: 'sandbox-app-client-id',
  clientSecret: 'sandbox-app-secret',
} as const;

/** The base64 of 32 public bytes: encrypts the stored tokens of the local stack only. */
export const LOCAL_STACK_ENCRYPTION_KEY = Buffer.from('local-stack-only-public-key-0001').toString('base64');

/**
 * The connector's environment in the local stack (`npm start`): one shop, the Shopify
 * sandbox's default `demo.myshopify.com`, reached with the client credentials grant of the
 * sandbox's default app (24-hour tokens, or `SHOPIFY_SANDBOX_TOKEN_TTL_S`; the app's secret
 * verifies the webhooks), synced into the
 * catalog sandbox's seeded account `demo` (its seeded key, apps/catalog-sandbox/seed/default.json).
 * Admin API calls go to the Shopify sandbox, and the connector subscribes the shop's product
 * webhooks to itself at boot. The shop's mapping is the reference one, `mappings/demo.yaml`.
 * Product images are fetched from the Shopify sandbox's CDN (its origin is the media allowlist).
 * These values are the sandboxes' public defaults, never real secrets; so is the admin token,
 * which the stack's summary prints (the user's CONNECTOR_ADMIN_TOKEN wins).
 */
export function localStackEnvironment(urls: LocalStackUrls): Record<string, string> {
  const port = urls.port ?? 3000;
  return {
    PORT: String(port),
    CONNECTOR_SHOPS: 'demo.myshopify.com',
    CONNECTOR_SHOP_DEMO_AUTH: 'client-credentials',
    CONNECTOR_SHOPIFY_CLIENT_ID: LOCAL_STACK_APP.clientId,
    CONNECTOR_SHOPIFY_CLIENT_SECRET: LOCAL_STACK_APP.clientSecret,
    CONNECTOR_ENCRYPTION_KEYS: LOCAL_STACK_ENCRYPTION_KEY,
    CONNECTOR_SHOP_DEMO_MAPPING_FILE: demoMappingPath(),
    CONNECTOR_CATALOG_URL: urls.catalogUrl,
    CONNECTOR_CATALOG_API_KEY: 'demo-api-key-0001',
    CONNECTOR_SHOPIFY_ADMIN_ORIGIN: urls.shopifyUrl,
    CONNECTOR_PUBLIC_URL: `http://127.0.0.1:${port}`,
    CONNECTOR_ADMIN_TOKEN: LOCAL_STACK_ADMIN_TOKEN,
    // Product images come from the Shopify sandbox's own CDN, and the catalog sandbox processes
    // uploads in 3 s (not 30 s to 2 min): poll sooner than in production.
    CONNECTOR_MEDIA_ALLOWED_HOSTS: urls.shopifyUrl,
    CONNECTOR_MEDIA_FIRST_POLL_MS: '4000',
    CONNECTOR_MEDIA_POLL_MS: '2000',
  };
}
