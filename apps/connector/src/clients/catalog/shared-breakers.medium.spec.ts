import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { type CatalogSandboxHarness, startCatalogSandbox, type TestAccount } from '#testing/catalog-sandbox';
import { mediumDatabase } from '../../../test/support/medium-database.js';
import { loadConnectorConfig } from '../../platform/config/connector.config.js';
import { Observations } from '../../platform/reporting/observations.service.js';
import { Shops } from '../../shops/shops.js';
import { CatalogBreakerRow } from './catalog-breaker.entity.js';
import { CatalogBreakerRepository } from './catalog-breaker.repository.js';
import { CatalogClients } from './catalog-clients.service.js';
import { CatalogGate } from './catalog-gate.service.js';
import { SharedBreakers } from './shared-breakers.service.js';
import { SyncPause } from './sync-pause.entity.js';
import { SyncPauseRepository } from './sync-pause.repository.js';
import { SyncPauses } from './sync-pauses.service.js';

const COOLDOWN_MS = 10_000;

/** Polls `check` until it answers a value (not undefined/false); fails after 10 s, saying `what`. */
async function until<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// Two replicas (each its catalog clients, shared breakers and gate) on one PostgreSQL schema and
// one clock, two catalog accounts X and Y in the catalog sandbox. X's key is revoked: the one
// replica whose call gets the 401 opens X's breaker, the other holds X's shops too and sends
// nothing for X; each cool-down one probe goes between them, and the one that succeeds (the key
// active again) resumes X on both. A third replica started meanwhile holds X's shops from its
// start, with no call for X. Y's shops go on throughout.
const database = mediumDatabase('breakers', [CatalogBreakerRow, SyncPause], { poolSize: 6 });
const clock = new ManualClock();
const id = randomBytes(4).toString('hex');
const SHOP_X = `x${id}.myshopify.com`;
const SHOP_Y = `y${id}.myshopify.com`;
let dataSource: DataSource;
let sandbox: CatalogSandboxHarness;
let x: TestAccount;
let y: TestAccount;

interface Replica {
  clients: CatalogClients;
  gate: CatalogGate;
  shared: SharedBreakers;
  /** HTTP attempts to the catalog by this replica, per shop's account. */
  calls: (shop: string) => number;
  close(): Promise<void>;
}

async function replica(): Promise<Replica> {
  const config = loadConnectorConfig({
    DATABASE_URL: inject('databaseUrl'),
    CONNECTOR_DATABASE_SCHEMA: database.schema,
    CONNECTOR_SHOPS: `${SHOP_X},${SHOP_Y}`,
    CONNECTOR_WEBHOOK_SECRETS: 's',
    CONNECTOR_CATALOG_URL: sandbox.url,
    CONNECTOR_CATALOG_API_KEY: 'unused-default-key',
    [`CONNECTOR_SHOP_X${id.toUpperCase()}_ACCESS_TOKEN`]: 't',
    [`CONNECTOR_SHOP_Y${id.toUpperCase()}_ACCESS_TOKEN`]: 't',
    [`CONNECTOR_SHOP_X${id.toUpperCase()}_CATALOG_API_KEY`]: x.apiKey,
    [`CONNECTOR_SHOP_Y${id.toUpperCase()}_CATALOG_API_KEY`]: y.apiKey,
    CONNECTOR_CATALOG_BREAKER_AUTH_COOLDOWN_MS: String(COOLDOWN_MS),
    // Budget to spare: a refused grant would sleep on the test's clock, which moves only when told.
    CONNECTOR_CATALOG_RATE_PER_SECOND: '1000',
    CONNECTOR_CATALOG_RATE_BURST: '100',
    // The test reads the shared rows itself (`refresh`), when it wants the other replica to see them.
    CONNECTOR_SYNC_PAUSE_REFRESH_MS: '3600000',
  });
  const observations = new Observations();
  const counts = new Map<string, number>();
  observations.subscribe({
    catalogCall: ({ account }) => counts.set(account, (counts.get(account) ?? 0) + 1),
  });
  const clients = new CatalogClients(
    config.database,
    config.queue,
    config.catalog,
    config.media,
    new Shops(config.shops),
    clock,
    observations,
  );
  const shared = new SharedBreakers(
    new CatalogBreakerRepository(dataSource.getRepository(CatalogBreakerRow)),
    clock,
    config.operations,
  );
  const pauses = new SyncPauses(
    new SyncPauseRepository(dataSource.getRepository(SyncPause)),
    clock,
    config.operations,
  );
  const gate = new CatalogGate(clients, clock, config.catalog, pauses, shared);
  await gate.onApplicationBootstrap();
  return {
    clients,
    gate,
    shared,
    calls: (shop) => counts.get(clients.forShop(shop).id) ?? 0,
    async close() {
      gate.onModuleDestroy();
      await shared.onModuleDestroy();
      await clients.onModuleDestroy();
    },
  };
}

beforeAll(async () => {
  dataSource = await database.open();
  sandbox = await startCatalogSandbox();
  x = await sandbox.createAccount();
  y = await sandbox.createAccount();
});

afterAll(async () => {
  await sandbox?.close();
  await database.close();
});

describe("one catalog account's breaker across replicas", () => {
  it('opens on both when one hears the key refused, probes once per cool-down between them, closes on both', async () => {
    const a = await replica();
    const b = await replica();
    try {
      const both = [a, b];
      const callsFor = (shop: string) => a.calls(shop) + b.calls(shop);
      // The boot check: each replica reads each account once (the key works).
      await until('the boot checks', () => both.every((r) => r.calls(SHOP_X) === 1 && r.calls(SHOP_Y) === 1));
      for (const r of both) expect(r.gate.waitFor(SHOP_X)).toBeNull();

      // X's key revoked in the catalog's portal; replica A's next call for X gets the 401.
      await x.controls.setKeysActive(false);
      await expect(a.clients.forShop(SHOP_X).client.getTaxonomy()).rejects.toMatchObject({ status: 401 });
      expect(a.gate.pauseState(SHOP_X)).toMatchObject({ paused: true, by: 'breaker' });
      await a.shared.settled();
      // B reads the shared breakers: X's shops wait there too, and B's call for X is not sent.
      await b.shared.refresh();
      expect(b.gate.pauseState(SHOP_X)).toEqual({
        paused: true,
        by: 'breaker',
        reason: 'catalog key refused (breaker open)',
        since: null,
      });
      expect(b.gate.waitFor(SHOP_X)).not.toBeNull();
      await expect(b.clients.forShop(SHOP_X).client.getTaxonomy()).rejects.toMatchObject({
        code: 'circuit_open',
      });
      expect(b.calls(SHOP_X)).toBe(1);
      expect(a.calls(SHOP_X)).toBe(2);
      // Y's shops go on, on both.
      for (const r of both) {
        expect(r.gate.waitFor(SHOP_Y)).toBeNull();
        await r.clients.forShop(SHOP_Y).client.getTaxonomy();
      }

      // The cool-down ends: one probe between the two (still refused), then twice the cool-down.
      await clock.advance(COOLDOWN_MS);
      await until('one probe, refused, and the doubled cool-down', async () => {
        const [row] = await rowOf(SHOP_X, a);
        return callsFor(SHOP_X) === 4 && row?.cooldown_ms === 2 * COOLDOWN_MS && clock.pendingSleepers === 2;
      });
      await Promise.all(both.map((r) => r.shared.settled()));
      await Promise.all(both.map((r) => r.shared.refresh()));
      for (const r of both) expect(r.gate.pauseState(SHOP_X)).toMatchObject({ paused: true, by: 'breaker' });
      expect(callsFor(SHOP_X)).toBe(4);
      // A replica started now holds X's shops from its start: no boot check for X (Y's it makes).
      const c = await replica();
      try {
        await until("C's boot check of Y", () => c.calls(SHOP_Y) === 1);
        expect(c.gate.pauseState(SHOP_X)).toMatchObject({ paused: true, by: 'breaker' });
        expect(c.calls(SHOP_X)).toBe(0);
      } finally {
        await c.close();
      }

      // The key works again; at the end of the doubled cool-down one probe closes it, for both.
      await x.controls.setKeysActive(true);
      await clock.advance(2 * COOLDOWN_MS);
      await until('the probe that closes it', async () => {
        const [row] = await rowOf(SHOP_X, a);
        return row?.state === 'closed';
      });
      await Promise.all(both.map((r) => r.shared.refresh()));
      for (const r of both) {
        expect(r.gate.waitFor(SHOP_X)).toBeNull();
        expect(r.clients.forShop(SHOP_X).client.breaker.state).toBe('closed');
      }
      expect(callsFor(SHOP_X)).toBe(5);
      // Y's breaker never opened: no row.
      expect(await rowOf(SHOP_Y, a)).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

/** The shared row of the shop's account. */
function rowOf(shop: string, r: Replica): Promise<Array<{ state: string; cooldown_ms: number }>> {
  return dataSource.query(
    `SELECT state, cooldown_ms FROM "${database.schema}".catalog_breakers WHERE account = $1`,
    [r.clients.forShop(shop).id],
  );
}
