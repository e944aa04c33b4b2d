import { ShopifySandboxError } from '../http/shopify-sandbox.error.js';
import type { AppConfig } from './app-config.js';
import type { AppRegistry } from './app-registry.service.js';
import { LIFETIMES_S, type MigratedPair, type RefreshRefusal } from './token-store.js';

/** RFC 8693's grant type, as `@shopify/shopify-api` sends it (`auth.migrateToExpiringToken`). */
export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
/** Shopify's token type of an offline access token (subject and requested type of a migration). */
export const OFFLINE_TOKEN_TYPE = 'urn:shopify:params:oauth:token-type:offline-access-token';

/** The parameters of `POST /admin/oauth/access_token` (query, form or JSON body merged). */
export type TokenParams = Record<string, string | undefined>;

/** What the token endpoint answers, as Shopify does (`scope` comma-separated). */
export interface TokenResponse {
  access_token: string;
  scope: string;
  expires_in?: number;
  refresh_token?: string;
  refresh_token_expires_in?: number;
}

/** Shopify's refusals (README, "Errors"); the sandbox's own words where Shopify's are not on record. */
export const OAUTH_ERRORS = {
  codeNotFound: () =>
    ShopifySandboxError.oauth('invalid_request', 'The authorization code was not found or was already used'),
  unknownApp: (clientId: string) =>
    ShopifySandboxError.oauth(
      'invalid_request',
      `Could not find Shopify API application with api_key ${clientId}`,
    ),
  wrongSecret: () =>
    ShopifySandboxError.oauth(
      'invalid_client',
      'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
    ),
  notInstalled: () => ShopifySandboxError.oauth('invalid_request', 'The app is not installed on this shop.'),
  clientCredentialsNotPermitted: () =>
    ShopifySandboxError.oauth('shop_not_permitted', 'Client credentials cannot be performed on this shop.'),
  refresh: (why: RefreshRefusal) =>
    ShopifySandboxError.oauth(
      'invalid_grant',
      why === 'retired'
        ? 'The refresh token was retired: its replacement has been used.'
        : why === 'expired'
          ? 'The refresh token has expired.'
          : 'The refresh token is invalid.',
    ),
  /** Shopify's answer to an invalid subject token (README, "Facts and sources"). */
  invalidSubjectToken: () =>
    ShopifySandboxError.oauth(
      'invalid_subject_token',
      'Token exchange cannot be performed due to an invalid subject token.',
    ),
  /** Shopify's error code (README, "Facts and sources"); the description is the sandbox's. */
  missingSubjectToken: () =>
    ShopifySandboxError.oauth('missing_subject_token', 'Required parameter missing: subject_token'),
  unsupportedTokenType: (name: string, value: string) =>
    ShopifySandboxError.oauth(
      'invalid_request',
      `${name} ${value} is not supported by shopify-sandbox: token exchange is implemented only to migrate a non-expiring offline token (${OFFLINE_TOKEN_TYPE}) to an expiring one`,
    ),
  expiringRequired: () =>
    ShopifySandboxError.oauth(
      'invalid_request',
      'Token exchange of an offline access token needs expiring=1 in shopify-sandbox: only the migration to an expiring token is implemented',
    ),
  missing: (name: string) =>
    ShopifySandboxError.oauth('invalid_request', `Required parameter missing: ${name}`),
  unsupportedGrant: (grant: string) =>
    ShopifySandboxError.oauth('unsupported_grant_type', `The grant type ${grant} is not supported.`),
};

/**
 * Answers one token request for `shop`: checks the app and its secret, then the grant
 * (`client_credentials`, `authorization_code` with or without `expiring=1`, `refresh_token`,
 * and token exchange to migrate a non-expiring offline token to an expiring one).
 */
export function grantToken(params: TokenParams, shop: string, apps: AppRegistry, now: number): TokenResponse {
  const clientId = params.client_id;
  if (!clientId) throw OAUTH_ERRORS.missing('client_id');
  const app = apps.app(clientId);
  if (!app) throw OAUTH_ERRORS.unknownApp(clientId);
  if (!apps.secretMatches(app, params.client_secret ?? '')) throw OAUTH_ERRORS.wrongSecret();
  const grant = params.grant_type ?? (params.code ? 'authorization_code' : undefined);
  switch (grant) {
    case 'client_credentials':
      return clientCredentials(app, shop, apps, now);
    case 'authorization_code':
      return authorizationCode(app, shop, params, apps, now);
    case 'refresh_token':
      return refreshToken(app, shop, params, apps, now);
    case TOKEN_EXCHANGE_GRANT:
      return migrateToExpiring(app, shop, params, apps, now);
    case undefined:
      throw OAUTH_ERRORS.missing('grant_type');
    default:
      throw OAUTH_ERRORS.unsupportedGrant(grant);
  }
}

function clientCredentials(app: AppConfig, shop: string, apps: AppRegistry, now: number): TokenResponse {
  if (app.distribution !== 'organization') throw OAUTH_ERRORS.clientCredentialsNotPermitted();
  if (!apps.isInstalled(shop, app.clientId)) throw OAUTH_ERRORS.notInstalled();
  const ttl = apps.ttl(LIFETIMES_S.clientCredentials);
  const token = apps.tokens.issueAccess(shop, app.clientId, 'client-credentials', app.scopes, now, ttl);
  return { access_token: token, scope: app.scopes.join(','), expires_in: ttl };
}

function authorizationCode(
  app: AppConfig,
  shop: string,
  params: TokenParams,
  apps: AppRegistry,
  now: number,
): TokenResponse {
  if (!params.code) throw OAUTH_ERRORS.missing('code');
  const taken = apps.tokens.takeCode(params.code, shop, app.clientId, now);
  if (!taken) throw OAUTH_ERRORS.codeNotFound();
  if (!apps.isInstalled(shop, app.clientId)) throw OAUTH_ERRORS.notInstalled();
  if (params.expiring !== '1') {
    const token = apps.tokens.issueAccess(shop, app.clientId, 'offline', taken.scopes, now, null);
    return { access_token: token, scope: taken.scopes.join(',') };
  }
  return expiringPair(app, shop, taken.scopes, apps, now, null);
}

function refreshToken(
  app: AppConfig,
  shop: string,
  params: TokenParams,
  apps: AppRegistry,
  now: number,
): TokenResponse {
  const given = params.refresh_token;
  if (!given) throw OAUTH_ERRORS.missing('refresh_token');
  const used = apps.tokens.useRefresh(given, shop, app.clientId, now);
  if ('refused' in used) throw OAUTH_ERRORS.refresh(used.refused);
  return expiringPair(app, shop, used.scopes, apps, now, given);
}

/**
 * Token exchange of a non-expiring offline token for an expiring pair, as Shopify migrates them
 * (https://shopify.dev/docs/apps/build/authentication-authorization/migrate-to-expiring-offline-access-tokens):
 * the original token is revoked; a retry with it within 7 days returns the same pair until the
 * pair is refreshed or replaced
 * (https://shopify.dev/changelog/more-resilient-token-exchanges-when-migrating-tokens-without-a-user-session).
 */
function migrateToExpiring(
  app: AppConfig,
  shop: string,
  params: TokenParams,
  apps: AppRegistry,
  now: number,
): TokenResponse {
  const subject = params.subject_token;
  if (!subject) throw OAUTH_ERRORS.missingSubjectToken();
  for (const name of ['subject_token_type', 'requested_token_type'] as const) {
    const value = params[name];
    if (!value) throw OAUTH_ERRORS.missing(name);
    if (value !== OFFLINE_TOKEN_TYPE) throw OAUTH_ERRORS.unsupportedTokenType(name, value);
  }
  if (params.expiring !== '1') throw OAUTH_ERRORS.expiringRequired();
  const ttl = apps.ttl(LIFETIMES_S.expiringOffline);
  const retried = apps.tokens.recoverMigration(subject, shop, app.clientId, now, ttl);
  if (retried) return migratedPair(retried);
  const original = apps.tokens.nonExpiring(subject, shop, app.clientId, now);
  if (!original || !apps.isInstalled(shop, app.clientId)) throw OAUTH_ERRORS.invalidSubjectToken();
  const pair = expiringPair(app, shop, original.scopes, apps, now, null);
  apps.tokens.recordMigration(subject, pair.access_token, pair.refresh_token, now);
  return pair;
}

function migratedPair(pair: MigratedPair): TokenResponse {
  return {
    access_token: pair.access,
    scope: pair.scopes.join(','),
    expires_in: pair.expiresInS,
    refresh_token: pair.refresh,
    refresh_token_expires_in: pair.refreshExpiresInS,
  };
}

/** An expiring offline access token (60 minutes) and its refresh token (90 days). */
function expiringPair(
  app: AppConfig,
  shop: string,
  scopes: string[],
  apps: AppRegistry,
  now: number,
  parent: string | null,
): Required<TokenResponse> {
  const ttl = apps.ttl(LIFETIMES_S.expiringOffline);
  return {
    access_token: apps.tokens.issueAccess(shop, app.clientId, 'expiring-offline', scopes, now, ttl),
    scope: scopes.join(','),
    expires_in: ttl,
    refresh_token: apps.tokens.issueRefresh(shop, app.clientId, scopes, now, parent),
    refresh_token_expires_in: LIFETIMES_S.refreshToken,
  };
}
