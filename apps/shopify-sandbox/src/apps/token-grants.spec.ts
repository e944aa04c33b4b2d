import { describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { IdSequence } from '../common/id-sequence.js';
import { loadShopifySandboxConfig } from '../config/shopify-sandbox.config.js';
import type { ShopifySandboxError } from '../http/shopify-sandbox.error.js';
import { ShopRegistry } from '../shops/shop-registry.service.js';
import { AppRegistry } from './app-registry.service.js';
import { grantToken, OFFLINE_TOKEN_TYPE, TOKEN_EXCHANGE_GRANT, type TokenParams } from './token-grants.js';

const SHOP = 'demo.myshopify.com';
const OTHER_SHOP = 'other.myshopify.com';
const DAY = 24 * 3_600_000;

/** Two apps on two shops, a clock at 2026-11-01, optionally a capped token lifetime. */
function sandbox(ttl?: string) {
  const config = loadShopifySandboxConfig({
    SHOPIFY_SANDBOX_APPS: 'connector:s1:public, other-app:s2:public',
    SHOPIFY_SANDBOX_SHOPS: `${SHOP}:shpat_static_demo, ${OTHER_SHOP}:shpat_static_other`,
    ...(ttl ? { SHOPIFY_SANDBOX_TOKEN_TTL_S: ttl } : {}),
  });
  const clock = new ManualClock(Date.UTC(2026, 10, 1));
  const apps = new AppRegistry(config, new ShopRegistry(config, clock, new IdSequence()), clock);
  const grant = (params: TokenParams, shop = SHOP) => grantToken(params, shop, apps, clock.now());
  /** A non-expiring offline token, as the authorization code grant without `expiring=1` issues it. */
  const legacy = (clientId = 'connector', shop = SHOP) =>
    apps.tokens.issueAccess(shop, clientId, 'offline', ['read_products'], clock.now(), null);
  return { apps, clock, grant, legacy };
}

/** The request `@shopify/shopify-api`'s `auth.migrateToExpiringToken` sends. */
const migration = (subject: string, overrides: TokenParams = {}): TokenParams => ({
  client_id: 'connector',
  client_secret: 's1',
  grant_type: TOKEN_EXCHANGE_GRANT,
  subject_token: subject,
  subject_token_type: OFFLINE_TOKEN_TYPE,
  requested_token_type: OFFLINE_TOKEN_TYPE,
  expiring: '1',
  ...overrides,
});

/** The OAuth body of the refusal `run` throws. */
function refusal(run: () => unknown): { error: string; error_description: string } {
  try {
    run();
  } catch (error) {
    return (error as ShopifySandboxError).body() as { error: string; error_description: string };
  }
  throw new Error('expected a refusal');
}

const INVALID_SUBJECT = {
  error: 'invalid_subject_token',
  error_description: 'Token exchange cannot be performed due to an invalid subject token.',
};

describe('token exchange: migrating a non-expiring offline token', () => {
  it('answers an expiring pair for a non-expiring token and revokes it for the Admin API', () => {
    const { apps, grant, legacy } = sandbox();
    const original = legacy();
    expect(apps.authenticate(original)).toMatchObject({ clientId: 'connector' });
    const pair = grant(migration(original));
    expect(pair).toEqual({
      access_token: expect.stringMatching(/^shpat_/),
      scope: 'read_products',
      expires_in: 3_600,
      refresh_token: expect.stringMatching(/^shprt_/),
      refresh_token_expires_in: 90 * 24 * 3_600,
    });
    expect(apps.authenticate(original)).toBeUndefined();
    expect(apps.authenticate(pair.access_token)).toMatchObject({ clientId: 'connector' });
  });

  it('answers a retry with the same pair for 7 days, the access token extended, the refresh token not', async () => {
    const { apps, clock, grant, legacy } = sandbox();
    const original = legacy();
    const first = grant(migration(original));
    await clock.advance(2 * 3_600_000);
    expect(apps.authenticate(first.access_token)).toBeUndefined();
    const retried = grant(migration(original));
    expect(retried).toEqual({ ...first, refresh_token_expires_in: 90 * 24 * 3_600 - 2 * 3_600 });
    expect(apps.authenticate(first.access_token)).toMatchObject({ clientId: 'connector' });
    await clock.advance(7 * DAY - 2 * 3_600_000 - 1);
    expect(grant(migration(original)).access_token).toBe(first.access_token);
    await clock.advance(1);
    expect(refusal(() => grant(migration(original)))).toEqual(INVALID_SUBJECT);
  });

  it('refuses a retry once the pair was refreshed, or replaced by a later authorization', () => {
    const { apps, clock, grant, legacy } = sandbox();
    const original = legacy();
    const first = grant(migration(original));
    grant({
      client_id: 'connector',
      client_secret: 's1',
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token as string,
    });
    expect(refusal(() => grant(migration(original)))).toEqual(INVALID_SUBJECT);

    const second = legacy();
    grant(migration(second));
    const code = apps.tokens.issueCode(
      SHOP,
      'connector',
      ['read_products'],
      'https://a.example/cb',
      clock.now(),
    );
    grant({ client_id: 'connector', client_secret: 's1', code, expiring: '1' });
    expect(refusal(() => grant(migration(second)))).toEqual(INVALID_SUBJECT);
  });

  it("refuses an unknown, expiring, another app's or another shop's token, and a wrong secret", () => {
    const { apps, clock, grant, legacy } = sandbox();
    const expiring = apps.tokens.issueAccess(SHOP, 'connector', 'expiring-offline', [], clock.now(), 3_600);
    for (const subject of ['shpat_unknown', expiring, legacy('other-app'), legacy('connector', OTHER_SHOP)]) {
      expect(refusal(() => grant(migration(subject)))).toEqual(INVALID_SUBJECT);
    }
    // The seeded shop's static token is no token the sandbox issued: not migrated either.
    expect(refusal(() => grant(migration('shpat_static_demo')))).toEqual(INVALID_SUBJECT);
    const original = legacy();
    expect(refusal(() => grant(migration(original, { client_secret: 'nope' })))).toMatchObject({
      error: 'invalid_client',
    });
    // Nothing was migrated: the token still works.
    expect(apps.authenticate(original)).toMatchObject({ clientId: 'connector' });
  });

  it('refuses other token types, a missing subject token and a migration without expiring=1', () => {
    const { grant, legacy } = sandbox();
    const original = legacy();
    expect(refusal(() => grant(migration('', {})))).toEqual({
      error: 'missing_subject_token',
      error_description: 'Required parameter missing: subject_token',
    });
    const idToken = 'urn:ietf:params:oauth:token-type:id_token';
    expect(refusal(() => grant(migration(original, { subject_token_type: idToken })))).toEqual({
      error: 'invalid_request',
      error_description: expect.stringContaining(`subject_token_type ${idToken} is not supported`),
    });
    const online = 'urn:shopify:params:oauth:token-type:online-access-token';
    expect(refusal(() => grant(migration(original, { requested_token_type: online })))).toEqual({
      error: 'invalid_request',
      error_description: expect.stringContaining(`requested_token_type ${online} is not supported`),
    });
    expect(refusal(() => grant(migration(original, { subject_token_type: undefined })))).toEqual({
      error: 'invalid_request',
      error_description: 'Required parameter missing: subject_token_type',
    });
    expect(refusal(() => grant(migration(original, { expiring: '0' })))).toMatchObject({
      error: 'invalid_request',
      error_description: expect.stringContaining('needs expiring=1'),
    });
  });

  it('caps the access token with SHOPIFY_SANDBOX_TOKEN_TTL_S, as the other expiring grants', () => {
    const { grant, legacy } = sandbox('60');
    expect(grant(migration(legacy()))).toMatchObject({ expires_in: 60 });
  });
});
