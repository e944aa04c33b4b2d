import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { mediumDatabase } from '../../test/support/medium-database.js';
import type { BulkProductReader } from '../clients/shopify/bulk-product.reader.js';
import type { ShopBulkLock } from '../clients/shopify/shop-bulk-lock.service.js';
import type { ShopifyAdmin } from '../clients/shopify/shopify-admin.service.js';
import type { SyncEnqueuer } from '../intake/sync-enqueuer.service.js';
import { loadConnectorConfig } from '../platform/config/connector.config.js';
import type { SyncProductPayload } from '../platform/queues/job-payloads.js';
import { SkuMapRepository } from '../product-sync/sku-map/sku-map.repository.js';
import { SkuMapLinks } from '../product-sync/sku-map/sku-map-links.repository.js';
import { SkuMapRow } from '../product-sync/sku-map/sku-map-row.entity.js';
import { SyncRecordRow } from '../product-sync/sync-record.entity.js';
import { SyncRecords } from '../product-sync/sync-records.repository.js';
import { Shops } from '../shops/shops.js';
import { ReconcileCheckpoint } from './reconcile-checkpoint.entity.js';
import { ReconcileCheckpointsRepository } from './reconcile-checkpoints.repository.js';
import { Reconciler } from './reconciler.service.js';
import { SeenProducts } from './seen-products.service.js';

// The reconciliation on real PostgreSQL (map, checkpoints), Shopify faked by a product list: a
// change the map has not applied and a product gone from Shopify are enqueued, nothing else.
const database = mediumDatabase('reconcile', [SkuMapRow, ReconcileCheckpoint, SyncRecordRow]);
const { schema } = database;
const clock = new ManualClock(Date.UTC(2026, 10, 23, 12));
const SHOP = 'reconcile-medium.myshopify.com';
const HOUR = 3_600_000;
const config = loadConnectorConfig({
  CONNECTOR_SHOPS: SHOP,
  CONNECTOR_SHOP_RECONCILE_MEDIUM_ACCESS_TOKEN: 't',
  CONNECTOR_WEBHOOK_SECRETS: 's',
  CONNECTOR_CATALOG_URL: 'http://catalog',
  CONNECTOR_CATALOG_API_KEY: 'k',
  CONNECTOR_RECONCILE_INTERVAL_MS: String(6 * HOUR),
});
let dataSource: DataSource;

/** Shopify's products of the fake: id -> updatedAt (ISO). */
const shopify = new Map<string, string>();
const queries: Array<string | null> = [];

beforeAll(async () => {
  dataSource = await database.open();
});

afterAll(() => database.close());

/** Bulk id scans the fake ran (`ok: false`: both attempts failed), and whether the shop's lock is taken. */
const bulkScans: string[] = [];
let bulkFails = false;
let lockTaken = false;

function reconciler(enqueued: SyncProductPayload[], bulkThreshold = config.resync.bulkThreshold): Reconciler {
  const admin = {
    request: async (_document: string, variables: { query: string | null; after: string | null }) => {
      queries.push(variables.query);
      const since = variables.query ? Date.parse(/'(.*)'/.exec(variables.query)?.[1] ?? '') : null;
      const nodes = [...shopify]
        .filter(([, at]) => since === null || Date.parse(at) >= since)
        .map(([id, at]) => ({ legacyResourceId: id, updatedAt: at }));
      return { products: { nodes, pageInfo: { hasNextPage: false, endCursor: null } } };
    },
  };
  return new Reconciler(
    { forShop: () => admin } as unknown as ShopifyAdmin,
    new SkuMapLinks(dataSource.getRepository(SkuMapRow), clock),
    new SeenProducts(
      new SkuMapLinks(dataSource.getRepository(SkuMapRow), clock),
      new SyncRecords(dataSource.getRepository(SyncRecordRow)),
    ),
    {
      enqueue: async (payload: SyncProductPayload) => void enqueued.push(payload),
      enqueueMany: async (payloads: SyncProductPayload[]) => void enqueued.push(...payloads),
    } as unknown as SyncEnqueuer,
    clock,
    config.reconcile,
    new Shops(config.shops),
    new ReconcileCheckpointsRepository(dataSource.getRepository(ReconcileCheckpoint)),
    {
      readIds: async (shop: string, onBatch: (ids: string[]) => Promise<void>) => {
        bulkScans.push(shop);
        if (bulkFails) return { ok: false, attempts: [] };
        await onBatch([...shopify.keys()]);
        return {
          ok: true,
          attempts: [{ operationId: 'gid://shopify/BulkOperation/1', outcome: 'completed' }],
        };
      },
    } as unknown as BulkProductReader,
    {
      withLock: <T>(_shop: string, work: () => Promise<T>, busy: () => Promise<T>) =>
        lockTaken ? busy() : work(),
    } as unknown as ShopBulkLock,
    { ...config.resync, bulkThreshold },
  );
}

/** A product the sync applied at `updatedAt`. */
async function synced(productId: string, updatedAt: string): Promise<void> {
  const map = new SkuMapRepository(dataSource.getRepository(SkuMapRow), clock);
  await map.recordIntent({
    shop: SHOP,
    productId,
    kind: 'simple',
    shopifyVariantId: null,
    supplierSku: `s-${productId}`,
    parentSupplierSku: null,
  });
  await map.markLive(SHOP, `s-${productId}`, `sku-${productId}`, {
    kind: 'simple',
    parentSupplierSku: null,
    snapshot: {},
    shopifyUpdatedAt: updatedAt,
    configuration: null,
    gaps: [],
  });
}

describe('Reconciler against PostgreSQL', () => {
  it('records a checkpoint first, then enqueues missed changes and missed deletions only', async () => {
    const at = (offsetMs: number) => new Date(clock.now() + offsetMs).toISOString();
    shopify.set('1', at(-2 * HOUR));
    shopify.set('2', at(-2 * HOUR));
    await synced('1', at(-2 * HOUR));
    await synced('2', at(-2 * HOUR));
    const enqueued: SyncProductPayload[] = [];

    expect(await reconciler(enqueued).reconcile(SHOP)).toEqual({ shop: SHOP, changed: 0, deleted: 0 });
    expect(queries).toEqual([]);

    await clock.advance(HOUR);
    // Too soon after the last run (a replica's boot): skipped.
    expect((await reconciler(enqueued).reconcile(SHOP)).changed).toBe(0);
    expect(queries).toEqual([]);

    await clock.advance(6 * HOUR);
    shopify.set('1', at(-HOUR)); // updated; its webhook was dropped
    shopify.set('3', at(-HOUR)); // created; the map never saw it
    await synced('4', at(-5 * HOUR)); // deleted in Shopify; its webhook was dropped
    shopify.set('2', at(-HOUR)); // updated, and synced by a run that started after that second
    await synced('5', at(-HOUR)); // updated again within the second its last sync read it
    shopify.set('5', at(-HOUR));
    for (const [id, startedAt] of [
      ['2', at(-HOUR + 1_000)],
      ['5', at(-HOUR + 999)],
    ] as const) {
      await dataSource.query(
        `UPDATE "${schema}".sku_map SET shopify_updated_at = $3 WHERE shop = $1 AND shopify_product_id = $2`,
        [SHOP, id, new Date(at(-HOUR))],
      );
      await dataSource.query(
        `INSERT INTO "${schema}".sync_records (shop, product_id, reason, outcome, started_at, finished_at)
         VALUES ($1, $2, 'webhook', 'synced', $3, $3)`,
        [SHOP, id, new Date(startedAt)],
      );
    }
    expect(await reconciler(enqueued).reconcile(SHOP)).toEqual({
      shop: SHOP,
      changed: 3,
      deleted: 1,
      deletionScan: 'pages',
    });
    expect(enqueued.map((p) => [p.productId, p.reason])).toEqual([
      ['1', 'reconcile'],
      ['3', 'reconcile'],
      ['5', 'reconcile'],
      ['4', 'reconcile'],
    ]);
    // "Updated since" starts at the last checkpoint, less the search index's lag.
    expect(queries[0]).toBe(
      `updated_at:>='${new Date(clock.now() - 7 * HOUR - 5 * 60_000).toISOString().replace('.000Z', 'Z')}'`,
    );
    expect(queries[1]).toBeNull();
    const [saved] = await dataSource.query(
      `SELECT last_changed, last_deleted FROM "${schema}".reconcile_checkpoints`,
    );
    expect(saved).toEqual({ last_changed: 3, last_deleted: 1 });
  });

  it('goes on with the other shops when one fails, then fails the job naming it', async () => {
    const two = loadConnectorConfig({
      CONNECTOR_SHOPS: `${SHOP},broken-medium.myshopify.com`,
      CONNECTOR_SHOP_RECONCILE_MEDIUM_ACCESS_TOKEN: 't',
      CONNECTOR_SHOP_BROKEN_MEDIUM_ACCESS_TOKEN: 't',
      CONNECTOR_WEBHOOK_SECRETS: 's',
      CONNECTOR_CATALOG_URL: 'http://catalog',
      CONNECTOR_CATALOG_API_KEY: 'k',
    });
    const reconciled: string[] = [];
    const subject = new Reconciler(
      {
        forShop: (shop: string) => ({
          request: async () => {
            if (shop.startsWith('broken')) throw new Error('401 unauthorized');
            reconciled.push(shop);
            return { products: { nodes: [], pageInfo: { hasNextPage: false, endCursor: null } } };
          },
        }),
      } as unknown as ShopifyAdmin,
      new SkuMapLinks(dataSource.getRepository(SkuMapRow), clock),
      new SeenProducts(
        new SkuMapLinks(dataSource.getRepository(SkuMapRow), clock),
        new SyncRecords(dataSource.getRepository(SyncRecordRow)),
      ),
      { enqueue: async () => undefined, enqueueMany: async () => undefined } as unknown as SyncEnqueuer,
      clock,
      two.reconcile,
      new Shops(two.shops),
      new ReconcileCheckpointsRepository(dataSource.getRepository(ReconcileCheckpoint)),
      {} as BulkProductReader,
      {} as ShopBulkLock,
      two.resync,
    );
    // Checkpoints first (no Shopify call), then a real run for both.
    await dataSource.query(
      `INSERT INTO "${schema}".reconcile_checkpoints (shop, checkpoint, last_run_at)
       VALUES ('broken-medium.myshopify.com', $1, $1)`,
      [new Date(clock.now() - 7 * HOUR)],
    );
    await clock.advance(7 * HOUR);
    await expect(subject.reconcileAll()).rejects.toThrow(
      'reconciliation failed for broken-medium.myshopify.com',
    );
    expect(reconciled.length).toBeGreaterThan(0);
    expect(new Set(reconciled)).toEqual(new Set([SHOP]));
  });

  it('lists the shop for deletions through a bulk id scan above the threshold, pages when it cannot', async () => {
    const enqueued: SyncProductPayload[] = [];
    const mapped = Number(
      (
        await dataSource.query(
          `SELECT count(DISTINCT shopify_product_id)::int AS n FROM "${schema}".sku_map WHERE shop = $1`,
          [SHOP],
        )
      )[0].n,
    );
    expect(mapped).toBeGreaterThan(2);
    const run = async () => {
      await clock.advance(7 * HOUR);
      queries.length = 0;
      return reconciler(enqueued, 2).reconcile(SHOP);
    };
    expect((await run()).deletionScan).toBe('bulk');
    expect(bulkScans).toEqual([SHOP]);
    // The changes' search only: the ids came from the bulk read.
    expect(queries).toHaveLength(1);
    lockTaken = true;
    expect((await run()).deletionScan).toBe('pages');
    expect(bulkScans).toEqual([SHOP]);
    lockTaken = false;
    bulkFails = true;
    expect((await run()).deletionScan).toBe('pages');
    expect(bulkScans).toEqual([SHOP, SHOP]);
    expect(queries).toHaveLength(2);
    bulkFails = false;
  });
});
