import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { uniqueId } from '#lib/testing';
import { mediumDatabase } from '../../test/support/medium-database.js';
import type { ShopConfig } from '../platform/config/connector.config.js';
import { Secret } from '../platform/config/secret.js';
import type { EncryptionSettings, ShopifySettings } from '../platform/config/settings.js';
import type { ShopFetchRoutes } from './shop-fetch-routes.service.js';
import { ShopSession } from './shop-session.entity.js';
import { ShopSessionRepository } from './shop-sessions.repository.js';
import { ShopTokens } from './shop-tokens.service.js';
import { Shops } from './shops.js';
import type { GrantedTokens, TokenGrants } from './token-grants.service.js';

// The lifecycle deliveries against a shop's session row (real PostgreSQL, the connector's
// migrations): an app/uninstalled or shop/redact older than the current installation is ignored
// and recorded; a client-credentials shop that comes back tells its listeners; a redacted row
// keeps only its domain.
const database = mediumDatabase('shoplife', [ShopSession], { poolSize: 4 });
const { schema } = database;
const HOUR = 3_600_000;
let dataSource: DataSource;

/** Shopify's token endpoint: a 24-hour token per grant. */
class FakeGrants {
  private issued = 0;

  async clientCredentials(_shop: ShopConfig, now: number): Promise<GrantedTokens> {
    this.issued += 1;
    return {
      accessToken: `shpat_issued_${this.issued}`,
      expiresAt: new Date(now + 24 * HOUR),
      refreshToken: null,
      refreshTokenExpiresAt: null,
      scope: 'read_products,write_products',
    };
  }
}

function tokensOf(
  domain: string,
  kind: 'client-credentials' | 'installed',
  grants: FakeGrants,
  clock: ManualClock,
) {
  const shop = {
    domain,
    key: 'X',
    auth: { kind, app: { clientId: 'app', clientSecret: new Secret('app-secret') } },
    webhookSecrets: [],
    apiVersion: '2026-07',
    mappingFile: null,
    catalog: { baseUrl: 'http://catalog', apiKey: new Secret('k') },
  } as unknown as ShopConfig;
  const tokens = new ShopTokens(
    new Shops([shop]),
    new ShopSessionRepository(dataSource.getRepository(ShopSession)),
    grants as unknown as TokenGrants,
    { tokenRefreshMarginMs: 300_000, tokenRefreshJitterMs: 0, reauthRecheckMs: 5_000 } as ShopifySettings,
    clock,
    { keys: [new Secret(randomBytes(32).toString('base64'))] } as EncryptionSettings,
    {} as ShopFetchRoutes,
  );
  tokens.random = () => 0;
  return tokens;
}

const installedPair = (now: number): GrantedTokens => ({
  accessToken: 'shpat_installed',
  expiresAt: new Date(now + HOUR),
  refreshToken: 'shprt_installed',
  refreshTokenExpiresAt: new Date(now + 90 * 24 * HOUR),
  scope: 'read_products,write_products,read_inventory',
});

beforeAll(async () => {
  dataSource = await database.open();
});

afterAll(() => database.close());

const row = async (shop: string) =>
  (await dataSource.query(`SELECT * FROM "${schema}".shop_sessions WHERE shop = $1`, [shop]))[0];

describe("ShopTokens and the shop's lifecycle deliveries", () => {
  it('ignores (and records) an app/uninstalled triggered before the current install; a later one applies', async () => {
    const clock = new ManualClock();
    const domain = `${uniqueId('u')}.myshopify.com`;
    const tokens = tokensOf(domain, 'installed', new FakeGrants(), clock);
    await tokens.onModuleInit();
    await tokens.installed(domain, installedPair(clock.now()));
    const installedAt = clock.now();
    await clock.advance(60_000);

    // A redelivery of an uninstall triggered an hour before this install.
    const ignored = await tokens.uninstalled(domain, new Date(installedAt - HOUR));
    expect(ignored).toContain('before the current installation');
    expect(await tokens.accessToken(domain)).toBe('shpat_installed');
    const kept = await row(domain);
    expect(kept).toMatchObject({ state: 'active', ignored_deliveries: 1 });
    expect(kept.access_token).not.toBeNull();
    expect(kept.installed_at.getTime()).toBe(installedAt);
    expect(kept.last_ignored_delivery).toContain('app/uninstalled triggered at');

    // An uninstall after the install (or one without a trigger time) applies.
    expect(await tokens.uninstalled(domain, new Date(clock.now()))).toBeNull();
    expect(await row(domain)).toMatchObject({ state: 'uninstalled', access_token: null });
  });

  it('a client-credentials shop granted again after an uninstall is active again: listeners told, its redacts of before ignored', async () => {
    const clock = new ManualClock();
    const grants = new FakeGrants();
    const domain = `${uniqueId('c')}.myshopify.com`;
    const tokens = tokensOf(domain, 'client-credentials', grants, clock);
    const told: string[] = [];
    tokens.onActiveAgain((shop) => told.push(shop));
    await tokens.onModuleInit();
    expect(await tokens.accessToken(domain)).toBe('shpat_issued_1');
    expect(told).toEqual([]);

    const uninstalledAt = clock.now();
    expect(await tokens.uninstalled(domain, new Date(uninstalledAt))).toBeNull();
    await clock.advance(10_000);
    expect(await tokens.accessToken(domain)).toBe('shpat_issued_2');
    expect(told).toEqual([domain]);
    const back = await row(domain);
    expect(back.state).toBe('active');
    expect(back.installed_at.getTime()).toBe(clock.now());

    // The redact Shopify sends 48 hours after that uninstall is about the installation before.
    await clock.advance(48 * HOUR);
    expect(await tokens.redacted(domain, new Date(uninstalledAt + 48 * HOUR))).toContain(
      '48 hours after an uninstall',
    );
    expect(await tokens.uninstalled(domain, new Date(uninstalledAt))).toContain(
      'before the current installation',
    );
    expect(await row(domain)).toMatchObject({ state: 'active', ignored_deliveries: 2 });
  });

  it('a redacted row keeps only its domain, auth kind and state: no scopes, refreshes or installation', async () => {
    const clock = new ManualClock();
    const domain = `${uniqueId('r')}.myshopify.com`;
    const tokens = tokensOf(domain, 'installed', new FakeGrants(), clock);
    await tokens.onModuleInit();
    await tokens.installed(domain, installedPair(clock.now()));
    await clock.advance(60_000);
    expect(await tokens.uninstalled(domain, new Date(clock.now()))).toBeNull();
    await clock.advance(60_000);
    expect(await tokens.redacted(domain, new Date(clock.now()))).toBeNull();
    expect(await row(domain)).toMatchObject({
      state: 'redacted',
      access_token: null,
      refresh_token: null,
      expires_at: null,
      scope: null,
      refreshed_at: null,
      refresh_count: 0,
      subscriptions: null,
      installed_at: null,
    });
  });
});
