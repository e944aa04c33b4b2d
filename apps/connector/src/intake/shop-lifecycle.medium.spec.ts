import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '#lib/clock';
import { uniqueId } from '#lib/testing';
import { mediumDatabase } from '../../test/support/medium-database.js';
import type { ShopConfig } from '../platform/config/connector.config.js';
import { Secret } from '../platform/config/secret.js';
import type { EncryptionSettings, ShopifySettings } from '../platform/config/settings.js';
import type { FailuresService } from '../platform/failures/failures.service.js';
import { ShopDataRegistry } from '../platform/reporting/shop-data-registry.service.js';
import type { InstalledShopDirectory } from '../shops/installed-shop-directory.service.js';
import type { ShopFetchRoutes } from '../shops/shop-fetch-routes.service.js';
import { ShopSession } from '../shops/shop-session.entity.js';
import { ShopSessionRepository } from '../shops/shop-sessions.repository.js';
import { ShopTokens } from '../shops/shop-tokens.service.js';
import { Shops } from '../shops/shops.js';
import type { GrantedTokens, TokenGrants } from '../shops/token-grants.service.js';
import { ShopLifecycle } from './shop-lifecycle.service.js';

// shop/redact against the shop's session row (real PostgreSQL, the connector's migrations): the
// purge holds the row's lock and acts only while the row still says `redacted`. A reinstall that
// committed between the redact and its purge refuses the purge (nothing purged, the refusal
// recorded and answered); a reinstall that comes in while the purge runs waits for it, and its
// join's rows come after it.
const database = mediumDatabase('redact', [ShopSession], { poolSize: 6 });
const { schema } = database;
const HOUR = 3_600_000;
let dataSource: DataSource;

beforeAll(async () => {
  dataSource = await database.open();
});

afterAll(() => database.close());

const pairAt = (now: number): GrantedTokens => ({
  accessToken: `shpat_${now}`,
  expiresAt: new Date(now + HOUR),
  refreshToken: `shprt_${now}`,
  refreshTokenExpiresAt: new Date(now + 90 * 24 * HOUR),
  scope: 'read_products,write_products',
});

/** An installed shop of its own, uninstalled an hour ago; the lifecycle over its row, its data purged by `purge`. */
async function uninstalledShop(purge: (shop: string) => Promise<number>) {
  const clock = new ManualClock();
  const domain = `${uniqueId('r')}.myshopify.com`;
  const shop = {
    domain,
    key: 'X',
    auth: { kind: 'installed', app: { clientId: 'app', clientSecret: new Secret('app-secret') } },
    webhookSecrets: [],
    apiVersion: '2026-07',
    mappingFile: null,
    catalog: { baseUrl: 'http://catalog', apiKey: new Secret('k') },
  } as unknown as ShopConfig;
  const sessions = new ShopSessionRepository(dataSource.getRepository(ShopSession));
  const tokens = new ShopTokens(
    new Shops([shop]),
    sessions,
    {} as TokenGrants,
    { tokenRefreshMarginMs: 300_000, tokenRefreshJitterMs: 0, reauthRecheckMs: 5_000 } as ShopifySettings,
    clock,
    { keys: [new Secret(randomBytes(32).toString('base64'))] } as EncryptionSettings,
    {} as ShopFetchRoutes,
  );
  await tokens.installed(domain, pairAt(clock.now()));
  await clock.advance(HOUR);
  expect(await tokens.uninstalled(domain, new Date(clock.now()))).toBeNull();
  await clock.advance(HOUR);
  const registry = new ShopDataRegistry();
  registry.register({ tables: ['shop_things'], purge });
  const lifecycle = (over: ShopTokens = tokens) =>
    new ShopLifecycle(
      over,
      registry,
      { purgeShop: async () => 0 } as unknown as FailuresService,
      { forget: async () => 0 } as unknown as InstalledShopDirectory,
      sessions,
      clock,
    );
  return { domain, tokens, lifecycle, clock };
}

const row = async (shop: string) =>
  (await dataSource.query(`SELECT * FROM "${schema}".shop_sessions WHERE shop = $1`, [shop]))[0];

describe("shop/redact's purge and a reinstall", () => {
  it('a reinstall committed between the redact and its purge refuses the purge: the data kept, the refusal recorded and answered', async () => {
    const purged: string[] = [];
    const { domain, tokens, lifecycle, clock } = await uninstalledShop(async (shop) => {
      purged.push(shop);
      return 1;
    });
    // The merchant installs the app again right after the row said `redacted`, before the purge.
    const reinstalling = Object.create(tokens) as ShopTokens;
    reinstalling.redacted = async (shop, triggeredAt) => {
      const ignored = await tokens.redacted(shop, triggeredAt);
      expect((await row(domain)).state).toBe('redacted');
      await tokens.installed(shop, pairAt(clock.now()));
      return ignored;
    };

    const answer = await lifecycle(reinstalling).handle(domain, 'shop/redact', new Date(clock.now()));
    expect(answer).toContain("came before the shop's installation");
    expect(answer).toContain('nothing purged');
    expect(purged).toEqual([]);
    const kept = await row(domain);
    expect(kept).toMatchObject({ state: 'active', ignored_deliveries: 1 });
    expect(kept.access_token).not.toBeNull();
    expect(kept.last_ignored_delivery).toMatch(
      /^shop\/redact came before the shop's installation.*refused at/,
    );
  });

  it('a reinstall that comes in while the purge runs waits for it; its join comes after the purge', async () => {
    const events: string[] = [];
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { domain, tokens, lifecycle, clock } = await uninstalledShop(async () => {
      events.push('purge started');
      await released;
      events.push('purge done');
      return 1;
    });

    const redact = lifecycle().handle(domain, 'shop/redact', new Date(clock.now()));
    await vi.waitFor(() => expect(events).toEqual(['purge started']), { timeout: 10_000, interval: 20 });
    const reinstall = tokens.installed(domain, pairAt(clock.now()), async (before) => {
      events.push(`join (row ${before.state})`);
    });
    try {
      // The reinstall waits for the session row, which the purge holds locked.
      await vi.waitFor(
        async () => {
          const [waiting] = await dataSource.query(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1`,
            [`%${schema}.shop_sessions%`],
          );
          expect(waiting.n).toBe(1);
        },
        { timeout: 10_000, interval: 20 },
      );
      expect(events).toEqual(['purge started']);
    } finally {
      release();
    }

    expect(await redact).toBeNull();
    await reinstall;
    expect(events).toEqual(['purge started', 'purge done', 'join (row redacted)']);
    expect(await row(domain)).toMatchObject({ state: 'active', ignored_deliveries: 0 });
  });
});
