import { randomBytes } from 'node:crypto';
import { HttpResponseError } from '@shopify/shopify-api';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { uniqueId } from '#lib/testing';
import { mediumDatabase } from '../../test/support/medium-database.js';
import type { ShopConfig } from '../platform/config/connector.config.js';
import { Secret } from '../platform/config/secret.js';
import type { EncryptionSettings, ShopifySettings } from '../platform/config/settings.js';
import { ShopAuthError, ShopAuthErrorCode } from './shop-auth.error.js';
import type { ShopFetchRoutes } from './shop-fetch-routes.service.js';
import { ShopSession } from './shop-session.entity.js';
import { ShopSessionRepository } from './shop-sessions.repository.js';
import { ShopTokens } from './shop-tokens.service.js';
import { Shops } from './shops.js';
import type { GrantedTokens, TokenGrants } from './token-grants.service.js';

// ShopTokens against real PostgreSQL (the connector's migrations, a schema of this file's own),
// with Shopify's token endpoint played by a fake: one renewal across callers and replicas, the
// pair stored encrypted before use, renewal before expiry and after a 401, refusals.
const database = mediumDatabase('shoptok', [ShopSession], { poolSize: 6 });
const { schema } = database;
const encryption = { keys: [new Secret(randomBytes(32).toString('base64'))] } as EncryptionSettings;
const settings = {
  tokenRefreshMarginMs: 300_000,
  tokenRefreshJitterMs: 60_000,
  reauthRecheckMs: 5_000,
} as ShopifySettings;
let dataSource: DataSource;

/** Shopify's token endpoint: counts grants, answers after `delayMs` (real time), or fails. */
class FakeGrants {
  calls: Array<{ kind: 'client-credentials' | 'refresh'; refreshToken?: string }> = [];
  lifeMs = 10_000;
  failure: unknown = null;
  delayMs = 30;
  private issued = 0;

  async clientCredentials(_shop: ShopConfig, now: number): Promise<GrantedTokens> {
    this.calls.push({ kind: 'client-credentials' });
    return this.answer(now, false);
  }

  async refresh(_shop: ShopConfig, refreshToken: string, now: number): Promise<GrantedTokens> {
    this.calls.push({ kind: 'refresh', refreshToken });
    return this.answer(now, true);
  }

  private async answer(now: number, pair: boolean): Promise<GrantedTokens> {
    await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    if (this.failure !== null) throw this.failure;
    this.issued += 1;
    return {
      accessToken: `shpat_issued_${this.issued}`,
      expiresAt: new Date(now + this.lifeMs),
      refreshToken: pair ? `shprt_issued_${this.issued}` : null,
      refreshTokenExpiresAt: pair ? new Date(now + 90 * 86_400_000) : null,
      scope: 'read_products,write_products',
    };
  }
}

function shopConfig(domain: string, kind: 'client-credentials' | 'installed'): ShopConfig {
  return {
    domain,
    key: 'X',
    auth: { kind, app: { clientId: 'app', clientSecret: new Secret('app-secret') } },
    webhookSecrets: [],
    apiVersion: '2026-07',
    mappingFile: null,
    catalog: { baseUrl: 'http://catalog', apiKey: new Secret('k') },
  } as unknown as ShopConfig;
}

function replica(
  shop: ShopConfig,
  grants: FakeGrants,
  clock: ManualClock,
  keys: EncryptionSettings = encryption,
): ShopTokens {
  const tokens = new ShopTokens(
    new Shops([shop]),
    new ShopSessionRepository(dataSource.getRepository(ShopSession)),
    grants as unknown as TokenGrants,
    settings,
    clock,
    keys,
    {} as ShopFetchRoutes,
  );
  tokens.random = () => 0;
  return tokens;
}

const refusal = (error: string) =>
  new HttpResponseError({ message: 'refused', code: 400, statusText: 'Bad Request', body: { error } });

beforeAll(async () => {
  dataSource = await database.open();
});

afterAll(() => database.close());

describe('ShopTokens', () => {
  let clock: ManualClock;
  let grants: FakeGrants;
  beforeEach(() => {
    clock = new ManualClock();
    grants = new FakeGrants();
  });

  const row = async (shop: string) =>
    (await dataSource.query(`SELECT * FROM "${schema}".shop_sessions WHERE shop = $1`, [shop]))[0];

  it('shares one grant among concurrent callers of two replicas, stored encrypted before use', async () => {
    const shop = shopConfig(`${uniqueId('a')}.myshopify.com`, 'client-credentials');
    const [one, two] = [replica(shop, grants, clock), replica(shop, grants, clock)];
    await one.onModuleInit();
    await two.onModuleInit();
    const tokens = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? one : two).accessToken(shop.domain)),
    );
    expect(new Set(tokens)).toEqual(new Set(['shpat_issued_1']));
    expect(grants.calls).toHaveLength(1);
    const stored = await row(shop.domain);
    expect(stored).toMatchObject({ auth_kind: 'client-credentials', state: 'active', refresh_count: 1 });
    expect(stored.scope).toBe('read_products,write_products');
    expect(stored.access_token).toMatch(/^v1:/);
    expect(JSON.stringify(stored)).not.toContain('shpat_issued_1');
  });

  it('renews a margin before expiry (at most a fifth of the life), not earlier', async () => {
    const shop = shopConfig(`${uniqueId('b')}.myshopify.com`, 'client-credentials');
    const tokens = replica(shop, grants, clock);
    await tokens.onModuleInit();
    expect(await tokens.accessToken(shop.domain)).toBe('shpat_issued_1');
    await clock.advance(7_900); // life 10 s: margin 2 s, jitter 0 here
    expect(await tokens.accessToken(shop.domain)).toBe('shpat_issued_1');
    await clock.advance(200);
    expect(await tokens.accessToken(shop.domain)).toBe('shpat_issued_2');
    expect(grants.calls).toHaveLength(2);
  });

  it('renews once after a 401; a caller with the same stale token gets the new one without a grant', async () => {
    const shop = shopConfig(`${uniqueId('c')}.myshopify.com`, 'client-credentials');
    const [one, two] = [replica(shop, grants, clock), replica(shop, grants, clock)];
    await one.onModuleInit();
    const stale = await one.accessToken(shop.domain);
    expect(await two.accessToken(shop.domain)).toBe(stale);
    expect(await one.afterUnauthorized(shop.domain, stale)).toBe('shpat_issued_2');
    expect(await two.afterUnauthorized(shop.domain, stale)).toBe('shpat_issued_2');
    expect(grants.calls).toHaveLength(2);
  });

  it("renews an installed shop's expiring token with its refresh token, storing the new pair", async () => {
    const shop = shopConfig(`${uniqueId('d')}.myshopify.com`, 'installed');
    const tokens = replica(shop, grants, clock);
    await tokens.onModuleInit();
    // Not installed yet: no token to renew.
    await expect(tokens.accessToken(shop.domain)).rejects.toMatchObject({
      code: ShopAuthErrorCode.NEEDS_REAUTH,
    });
    // Installed (what the OAuth callback stores): an expired token and its refresh token.
    const cipher = (tokens as unknown as { cipher: { encrypt(s: string): string } }).cipher;
    await dataSource.query(
      `UPDATE "${schema}".shop_sessions SET state = 'active', access_token = $2, refresh_token = $3,
         expires_at = $4, refreshed_at = $5 WHERE shop = $1`,
      [
        shop.domain,
        cipher.encrypt('shpat_old'),
        cipher.encrypt('shprt_old'),
        new Date(clock.now()),
        new Date(clock.now() - 3_600_000),
      ],
    );
    const fresh = replica(shop, grants, clock);
    expect(await fresh.accessToken(shop.domain)).toBe('shpat_issued_1');
    expect(grants.calls).toEqual([{ kind: 'refresh', refreshToken: 'shprt_old' }]);
    expect(await fresh.afterUnauthorized(shop.domain, 'shpat_issued_1')).toBe('shpat_issued_2');
    expect(grants.calls[1]).toEqual({ kind: 'refresh', refreshToken: 'shprt_issued_1' });
  });

  it('gets a new token when the stored one was encrypted with a key no longer listed', async () => {
    const shop = shopConfig(`${uniqueId('f')}.myshopify.com`, 'client-credentials');
    const before = replica(shop, grants, clock);
    await before.onModuleInit();
    expect(await before.accessToken(shop.domain)).toBe('shpat_issued_1');
    const otherKey = { keys: [new Secret(randomBytes(32).toString('base64'))] } as EncryptionSettings;
    expect(await replica(shop, grants, clock, otherKey).accessToken(shop.domain)).toBe('shpat_issued_2');
    expect((await row(shop.domain)).state).toBe('active');
  });

  it("puts the shop in needs_reauth on Shopify's refusal only; a network error is tried again", async () => {
    const shop = shopConfig(`${uniqueId('e')}.myshopify.com`, 'client-credentials');
    const tokens = replica(shop, grants, clock);
    await tokens.onModuleInit();
    grants.failure = new TypeError('fetch failed');
    const network = await tokens.accessToken(shop.domain).catch((error: unknown) => error);
    expect(network).toMatchObject({
      code: ShopAuthErrorCode.TOKEN_UNAVAILABLE,
      retryable: true,
      waitMs: null,
    });
    expect((await row(shop.domain)).state).toBe('active');

    grants.failure = refusal('invalid_client');
    const refused = await tokens.accessToken(shop.domain).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ShopAuthError);
    expect(refused).toMatchObject({ code: ShopAuthErrorCode.NEEDS_REAUTH, waitMs: 5_000 });
    expect(await row(shop.domain)).toMatchObject({ state: 'needs_reauth', state_reason: 'invalid_client' });
    // The refusal is remembered: no new grant until the recheck.
    const calls = grants.calls.length;
    await expect(tokens.accessToken(shop.domain)).rejects.toMatchObject({
      code: ShopAuthErrorCode.NEEDS_REAUTH,
    });
    expect(grants.calls).toHaveLength(calls);
    // A restart with corrected credentials tries again.
    grants.failure = null;
    const restarted = replica(shop, grants, clock);
    await restarted.onModuleInit();
    expect(await restarted.accessToken(shop.domain)).toMatch(/^shpat_issued_/);
    expect((await row(shop.domain)).state).toBe('active');
  });
});
