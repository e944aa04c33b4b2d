import type { Env, EnvReader } from '#lib/config';
import type { Secret } from './secret.js';
import { readSecret, type SecretFileReader } from './secret-reader.js';

/** How the connector gets a shop's Admin API token (docs/shop-auth.md, "How each shop authenticates"). */
export const SHOP_AUTH_KINDS = ['static', 'client-credentials', 'installed'] as const;
export type ShopAuthKind = (typeof SHOP_AUTH_KINDS)[number];

/** A Dev Dashboard app's credentials: the client credentials grant, refreshes, webhook signatures. */
export interface AppCredentials {
  clientId: string;
  clientSecret: Secret;
}

/**
 * How one shop authenticates: a legacy custom app's static token, the client credentials grant
 * of the merchant's own organization's app (24-hour tokens), or the tokens of an OAuth install
 * (expiring, refreshed with their refresh token).
 */
export type ShopAuth =
  | { kind: 'static'; accessToken: Secret; app: AppCredentials | null }
  | { kind: 'client-credentials' | 'installed'; app: AppCredentials };

/** The connector-wide app credentials (`CONNECTOR_SHOPIFY_CLIENT_ID`, `..._CLIENT_SECRET`), if set. */
export interface AppCredentialDefaults {
  clientId: string | undefined;
  clientSecret: Secret | undefined;
}

/** `CONNECTOR_SHOPIFY_CLIENT_ID` and `CONNECTOR_SHOPIFY_CLIENT_SECRET` (or `_FILE`). */
export function readAppCredentialDefaults(
  read: EnvReader,
  env: Env,
  readFile: SecretFileReader,
): AppCredentialDefaults {
  return {
    clientId: read.optionalString('CONNECTOR_SHOPIFY_CLIENT_ID'),
    clientSecret: readSecret(read, env, 'CONNECTOR_SHOPIFY_CLIENT_SECRET', readFile),
  };
}

/**
 * A shop's `CONNECTOR_SHOP_<KEY>_AUTH` (default: `static` when it has an access token, else
 * `client-credentials`), its token or its app's credentials (`..._CLIENT_ID`, `..._CLIENT_SECRET`,
 * falling back to the connector-wide ones). Null after reporting what is missing.
 */
export function readShopAuth(
  read: EnvReader,
  env: Env,
  readFile: SecretFileReader,
  domain: string,
  prefix: string,
  defaults: AppCredentialDefaults,
): ShopAuth | null {
  const accessToken = readSecret(read, env, `${prefix}ACCESS_TOKEN`, readFile);
  const kind = read.oneOf(
    `${prefix}AUTH`,
    SHOP_AUTH_KINDS,
    accessToken === undefined ? 'client-credentials' : 'static',
  );
  const clientId = read.optionalString(`${prefix}CLIENT_ID`) ?? defaults.clientId;
  const clientSecret = readSecret(read, env, `${prefix}CLIENT_SECRET`, readFile) ?? defaults.clientSecret;
  const app = clientId !== undefined && clientSecret !== undefined ? { clientId, clientSecret } : null;
  if (kind === 'static') {
    if (accessToken !== undefined) return { kind, accessToken, app };
    read.problems.push(
      `${domain}: the Admin API access token is missing (set ${prefix}ACCESS_TOKEN or ${prefix}ACCESS_TOKEN_FILE)`,
    );
    return null;
  }
  if (accessToken !== undefined) {
    read.problems.push(`${domain}: ${prefix}ACCESS_TOKEN is set but ${prefix}AUTH is ${kind}; set only one`);
  }
  if (app !== null) return { kind, app };
  if (read.optionalString(`${prefix}AUTH`) === undefined) {
    read.problems.push(
      `${domain}: the Admin API access token is missing (set ${prefix}ACCESS_TOKEN or ${prefix}ACCESS_TOKEN_FILE, or the app's credentials CONNECTOR_SHOPIFY_CLIENT_ID and CONNECTOR_SHOPIFY_CLIENT_SECRET)`,
    );
    return null;
  }
  const missing = [
    clientId === undefined ? `${prefix}CLIENT_ID or CONNECTOR_SHOPIFY_CLIENT_ID` : null,
    clientSecret === undefined
      ? `${prefix}CLIENT_SECRET or CONNECTOR_SHOPIFY_CLIENT_SECRET (or their _FILE)`
      : null,
  ].filter((name) => name !== null);
  read.problems.push(`${domain}: ${kind} needs the app's credentials (set ${missing.join(', and ')})`);
  return null;
}
