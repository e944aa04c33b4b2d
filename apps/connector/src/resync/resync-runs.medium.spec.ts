import type { Queue } from 'bullmq';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { mediumDatabase } from '../../test/support/medium-database.js';
import type { ShopifyAdmin } from '../clients/shopify/shopify-admin.service.js';
import type { SyncEnqueuer } from '../intake/sync-enqueuer.service.js';
import { loadConnectorConfig } from '../platform/config/connector.config.js';
import { Failure } from '../platform/failures/failure.entity.js';
import { FailuresRepository } from '../platform/failures/failures.repository.js';
import type { ResyncPagePayload, SyncProductPayload } from '../platform/queues/job-payloads.js';
import { RetentionRegistry } from '../platform/reporting/retention-registry.service.js';
import { MediaDryRuns } from '../product-sync/media-dry-runs.service.js';
import type { ProductDryRun } from '../product-sync/product-dry-run.service.js';
import { SyncRecordRow } from '../product-sync/sync-record.entity.js';
import { SyncRecords } from '../product-sync/sync-records.repository.js';
import { Shops } from '../shops/shops.js';
import type { ReconcileRunHooks, Reconciler } from './reconciler.service.js';
import { ResyncService } from './resync.service.js';
import type { BulkWalkOutcome, ResyncBulkWalk } from './resync-bulk-walk.service.js';
import { ResyncDryRun } from './resync-dry-run.service.js';
import { ResyncRetention } from './resync-retention.service.js';
import { ResyncRun } from './resync-run.entity.js';
import { ResyncRunsRepository } from './resync-runs.repository.js';

// Resync runs on real PostgreSQL (the connector's migrations, a schema of this file's own), with
// Shopify and the queues faked: a run walks page by page from its persisted cursor, resumes after
// a "restart" (a new service on the same tables), counts done and failed products, and stops
// when cancelled.
const database = mediumDatabase('resync', [ResyncRun, Failure, SyncRecordRow]);
const { schema } = database;
const clock = new ManualClock(Date.UTC(2026, 10, 23, 12));
const SHOP = 'resync-medium.myshopify.com';
const config = loadConnectorConfig({
  CONNECTOR_SHOPS: SHOP,
  CONNECTOR_SHOP_RESYNC_MEDIUM_ACCESS_TOKEN: 't',
  CONNECTOR_WEBHOOK_SECRETS: 's',
  CONNECTOR_CATALOG_URL: 'http://catalog',
  CONNECTOR_CATALOG_API_KEY: 'k',
  CONNECTOR_RESYNC_PAGE_SIZE: '2',
  CONNECTOR_CATALOG_RATE_PER_SECOND: '2',
});
let dataSource: DataSource;
let runs: ResyncRunsRepository;

/** Five Shopify products, ids beyond 2^53; cursors are positions. */
const PRODUCTS = ['9007199254740993001', '9007199254740993002', '9007199254740993003', '4', '5'];

/** The parts of the world a ResyncService talks to, recorded. */
function world(bulkOutcome: BulkWalkOutcome | null = null, resync = config.resync) {
  const bulkWalks: string[] = [];
  const enqueued: SyncProductPayload[] = [];
  const jobs = new Map<string, ResyncPagePayload>();
  const shopifyCalls: Array<string | null> = [];
  const planned: string[] = [];
  // The media step plans one image upload, for the last product (after its sync's calls).
  const media = new MediaDryRuns();
  media.provide({
    plan: async (_shop, productId, syncWrites) =>
      productId === PRODUCTS[4] && syncWrites.length === 1
        ? [
            {
              kind: 'uploadImage',
              method: 'POST',
              path: '/v1/upload/prepare',
              supplierSku: null,
              body: { shopifyMediaId: 'gid://shopify/MediaImage/1', sourceUrl: 'https://img/1.jpg' },
              before: null,
              after: {
                shopifyMediaId: 'gid://shopify/MediaImage/1',
                fileId: 'upload:gid://shopify/MediaImage/1',
              },
            },
          ]
        : [],
  });
  const admin = {
    request: async (_document: string, variables: { after: string | null; first: number }) => {
      shopifyCalls.push(variables.after);
      const start = variables.after === null ? 0 : Number(variables.after);
      const nodes = PRODUCTS.slice(start, start + variables.first).map((id) => ({
        legacyResourceId: id,
        updatedAt: '2026-11-23T12:00:00Z',
      }));
      const end = start + nodes.length;
      return {
        products: { nodes, pageInfo: { hasNextPage: end < PRODUCTS.length, endCursor: String(end) } },
      };
    },
  };
  const queue = {
    add: async (_name: string, data: ResyncPagePayload, options: { jobId: string }) => {
      if (!jobs.has(options.jobId)) jobs.set(options.jobId, data);
    },
  };
  const service = new ResyncService(
    runs,
    {
      enqueue: async (payload: SyncProductPayload) => void enqueued.push(payload),
      enqueueMany: async (payloads: SyncProductPayload[]) => void enqueued.push(...payloads),
    } as unknown as SyncEnqueuer,
    { forShop: () => admin } as unknown as ShopifyAdmin,
    config.sync,
    config.catalog,
    resync,
    new Shops(config.shops),
    queue as unknown as Queue<ResyncPagePayload>,
    {
      walk: async (run: ResyncRun) => {
        bulkWalks.push(run.id);
        if (bulkOutcome === null) throw new Error('no bulk read expected');
        if (bulkOutcome === 'fallback')
          await runs.readWith(run.id, 'bulk-fallback', [{ operationId: null, outcome: 'x' }]);
        return bulkOutcome;
      },
    } as unknown as ResyncBulkWalk,
    new ResyncDryRun(
      runs,
      {
        plan: async (_shop: string, productId: string) => {
          planned.push(productId);
          return {
            found: true,
            result: 'applied',
            detail: null,
            writes: [
              {
                kind: 'updateProduct',
                method: 'PATCH',
                path: `/v1/products/sku-${productId}`,
                supplierSku: `S-${productId}`,
                body: { attributes: { name: `new ${productId}` } },
                before: { name: `old ${productId}` },
                after: { name: `new ${productId}` },
              },
            ],
          };
        },
      } as unknown as ProductDryRun,
      media,
    ),
    {
      reconcile: async (_shop: string, hooks: ReconcileRunHooks) => {
        await hooks.found(PRODUCTS.slice(3));
        return { shop: SHOP, changed: 2, deleted: 0 };
      },
    } as unknown as Reconciler,
  );
  return { service, enqueued, jobs, shopifyCalls, bulkWalks, planned };
}

beforeAll(async () => {
  dataSource = await database.open();
  runs = new ResyncRunsRepository(
    dataSource.getRepository(ResyncRun),
    clock,
    new FailuresRepository(dataSource.getRepository(Failure)),
    new SyncRecords(dataSource.getRepository(SyncRecordRow)),
  );
});

afterAll(() => database.close());

describe('resync runs against PostgreSQL', () => {
  it('walks a shop page by page from its persisted cursor, and resumes after a restart', async () => {
    const first = world();
    const started = await first.service.start(SHOP, null);
    expect(started).toMatchObject({ scope: 'shop', state: 'running', walkDone: false, listed: 0 });
    expect([...first.jobs.keys()]).toEqual([`resync-${started.id}-0`]);

    expect(await first.service.walkPage(started.id)).toBe('walked');
    expect(first.enqueued).toEqual([
      { shop: SHOP, productId: PRODUCTS[0], reason: 'resync' },
      { shop: SHOP, productId: PRODUCTS[1], reason: 'resync' },
    ]);
    expect([...first.jobs.keys()]).toEqual([`resync-${started.id}-0`, `resync-${started.id}-1`]);
    expect((await runs.get(started.id))?.cursor).toBe('2');

    // "Restart": a new service on the same tables resumes the walk at the persisted page;
    // the page job it enqueues has the id of the one that may still wait (one job).
    const second = world();
    await second.service.onApplicationBootstrap();
    expect([...second.jobs.keys()]).toEqual([`resync-${started.id}-1`]);
    expect(await second.service.walkPage(started.id)).toBe('walked');
    expect(second.shopifyCalls).toEqual(['2']);
    expect(await second.service.walkPage(started.id)).toBe('last');
    expect(second.enqueued.map((p) => p.productId)).toEqual(PRODUCTS.slice(2));

    // A page job run twice (a retry after the cursor moved) neither lists nor counts again.
    expect(await second.service.walkPage(started.id)).toBe('stopped');
    const shown = await second.service.show(started.id);
    expect(shown).toMatchObject({ walkDone: true, pages: 3, listed: 5, done: 0, failed: 0, remaining: 5 });
    expect(shown.etaSeconds).toBe(3); // 5 products at 2 calls per second, at least one call each
    expect(shown.callsPerProduct).toBeNull();

    // Syncs report back (SyncEvents), one fails for good (failures table): the run ends done.
    for (const id of PRODUCTS.slice(0, 4)) await runs.products.productSynced(SHOP, id);
    // Their sync records: 3 catalog calls each, for the first two; none for the others.
    for (const [i, id] of PRODUCTS.slice(0, 4).entries()) {
      const calls = JSON.stringify(i < 2 ? [{}, {}, {}] : []);
      await dataSource.query(
        `INSERT INTO "${schema}".sync_records (shop, product_id, reason, outcome, calls, started_at, finished_at)
         VALUES ($1, $2, 'resync', 'synced', $3::jsonb, $4, $4)`,
        [SHOP, id, calls, new Date(clock.now())],
      );
    }
    const midway = await second.service.show(started.id);
    expect(midway).toMatchObject({ done: 4, remaining: 1, callsPerProduct: 1.5 });
    expect(midway.etaSeconds).toBe(1); // 1 product x 1.5 calls at 2 per second
    await dataSource.query(
      `INSERT INTO "${schema}".failures (shop, job_kind, subject_key, payload, error_code, error_message, retryable,
         attempts, first_failed_at, last_failed_at)
       VALUES ($1, 'sync-product', $2, '{}'::jsonb, 'x', 'x', false, 8, $3, $3)`,
      [SHOP, PRODUCTS[4], new Date(clock.now() + 1_000)],
    );
    expect(await second.service.show(started.id)).toMatchObject({
      state: 'done',
      done: 4,
      failed: 1,
      remaining: 0,
      etaSeconds: null,
    });
  });

  it('stops a cancelled walk before its next page, and refuses to cancel it twice', async () => {
    const { service, enqueued, shopifyCalls } = world();
    const run = await service.start(SHOP, null);
    expect(await service.walkPage(run.id)).toBe('walked');
    expect((await service.cancel(run.id)).state).toBe('cancelled');
    expect(await service.walkPage(run.id)).toBe('stopped');
    // The product count (one id page of CONNECTOR_BULK_THRESHOLD + 1), then the first page.
    expect(shopifyCalls).toEqual([null, null]);
    expect(enqueued).toHaveLength(2);
    await expect(service.cancel(run.id)).rejects.toMatchObject({ code: 'run_not_running', status: 409 });
    // A cancelled run is not resumed at boot.
    const after = world();
    await after.service.onApplicationBootstrap();
    expect([...after.jobs.keys()].filter((id) => id.startsWith(`resync-${run.id}-`))).toEqual([]);
  });

  it('resyncs one product at once, and a failed walk is replayed from its cursor', async () => {
    const { service, enqueued, jobs } = world();
    const one = await service.start(SHOP, PRODUCTS[2] as string);
    expect(one).toMatchObject({ scope: 'product', productId: PRODUCTS[2], walkDone: true, listed: 1 });
    expect(enqueued).toEqual([{ shop: SHOP, productId: PRODUCTS[2], reason: 'resync' }]);
    await runs.products.productSynced(SHOP, PRODUCTS[2] as string);
    expect((await service.show(one.id)).state).toBe('done');

    const walk = await service.start(SHOP, null);
    await service.walkPage(walk.id);
    await service.walkFailed(walk.id, 'shopify_unavailable: gone');
    expect((await service.show(walk.id)).state).toBe('failed');
    await service.resumeFailed(walk.id, '77');
    expect(jobs.has(`resync-${walk.id}-1-replay-77`)).toBe(true);
    expect(await service.walkPage(walk.id)).toBe('walked');
    expect((await service.show(walk.id)).listed).toBe(4);
  });

  it('registers its tables with retention: ended runs past the age go with their products; running and failed stay', async () => {
    const shop = 'prune-medium.myshopify.com';
    const DAY = 86_400_000;
    const ended = async (
      state: 'done' | 'cancelled' | 'failed' | null,
      daysAgo: number,
      productId: string,
    ) => {
      const run = await runs.create(shop, productId);
      if (state !== null) await runs.finish(run.id, state);
      await dataSource.query(
        `UPDATE "${schema}".resync_runs SET finished_at = $2 WHERE id = $1 AND finished_at IS NOT NULL`,
        [run.id, new Date(clock.now() - daysAgo * DAY)],
      );
      return run.id;
    };
    const oldDone = await ended('done', 40, '901');
    const oldCancelled = await ended('cancelled', 31, '902');
    const oldFailed = await ended('failed', 60, '903');
    const recentDone = await ended('done', 10, '904');
    const running = await ended(null, 0, '905');

    const registry = new RetentionRegistry();
    new ResyncRetention(registry, runs, config.retention).onModuleInit();
    const tables = registry.all();
    expect(tables.map((t) => [t.name, t.ageMs])).toEqual([
      ['resync_run_products', 30 * DAY],
      ['resync_runs', 30 * DAY],
    ]);
    const before = new Date(clock.now() - 30 * DAY);
    const pruned = [];
    for (const table of tables) pruned.push(await table.prune(before));
    expect(pruned).toEqual([2, 2]);

    const left: Array<{ id: string }> = await dataSource.query(
      `SELECT id::text FROM "${schema}".resync_runs WHERE shop = $1 ORDER BY id`,
      [shop],
    );
    expect(left.map((r) => r.id)).toEqual([oldFailed, recentDone, running]);
    expect(left.map((r) => r.id)).not.toContain(oldDone);
    expect(left.map((r) => r.id)).not.toContain(oldCancelled);
    const products: Array<{ product_id: string }> = await dataSource.query(
      `SELECT product_id::text FROM "${schema}".resync_run_products WHERE shop = $1 ORDER BY product_id`,
      [shop],
    );
    expect(products.map((p) => p.product_id)).toEqual(['903', '904', '905']);
    // A second pass finds nothing more.
    expect(await Promise.all(tables.map((t) => t.prune(before)))).toEqual([0, 0]);
  });

  it('answers 404 for an unknown or malformed run id, and for an unknown shop', async () => {
    const { service } = world();
    await expect(service.show('999999')).rejects.toMatchObject({ code: 'not_found' });
    await expect(service.show('abc')).rejects.toMatchObject({ code: 'not_found' });
    await expect(service.start('other.myshopify.com', null)).rejects.toMatchObject({ code: 'unknown_shop' });
  });

  it('reads a shop above the bulk threshold through a bulk read, and pages after it failed twice', async () => {
    const bulkConfig = { ...config.resync, bulkThreshold: 3 };
    const bulk = world('last', bulkConfig);
    const run = await bulk.service.start(SHOP, null);
    expect(await bulk.service.walkPage(run.id)).toBe('last');
    expect(bulk.bulkWalks).toEqual([run.id]);
    expect(bulk.shopifyCalls).toEqual([null]);
    expect((await bulk.service.show(run.id)).readMode).toBe('bulk');

    const failing = world('fallback', bulkConfig);
    const fallback = await failing.service.start(SHOP, null);
    expect(await failing.service.walkPage(fallback.id)).toBe('walked');
    expect(failing.enqueued.map((p) => p.productId)).toEqual(PRODUCTS.slice(0, 2));
    const shown = await failing.service.show(fallback.id);
    expect(shown).toMatchObject({
      readMode: 'bulk-fallback',
      bulkAttempts: [{ operationId: null, outcome: 'x' }],
    });
    // The next pages read pages: the run does not try a bulk read again.
    expect(await failing.service.walkPage(fallback.id)).toBe('walked');
    expect(failing.bulkWalks).toEqual([fallback.id]);
  });

  it('starts with pages at or below the threshold', async () => {
    const { service } = world();
    const run = await service.start(SHOP, null);
    await service.walkPage(run.id);
    expect((await service.show(run.id)).readMode).toBe('pages');
  });

  it('a dry run plans each product instead of enqueueing it, pages only, and keeps the plans in the run', async () => {
    const bulkConfig = { ...config.resync, bulkThreshold: 3 };
    const dry = world(null, bulkConfig);
    const run = await dry.service.start(SHOP, null, true);
    expect(run).toMatchObject({ dryRun: true, plan: { counts: { products: 0, total: 0 }, products: [] } });
    expect(await dry.service.walkPage(run.id)).toBe('walked');
    // A product's sync reporting back meanwhile does not count as planned.
    await runs.products.productSynced(SHOP, PRODUCTS[2] as string);
    expect(await dry.service.walkPage(run.id)).toBe('walked');
    expect(await dry.service.walkPage(run.id)).toBe('last');
    expect(dry.enqueued).toEqual([]);
    expect(dry.bulkWalks).toEqual([]);
    expect(dry.planned).toEqual(PRODUCTS);
    const shown = await dry.service.show(run.id);
    expect(shown).toMatchObject({
      state: 'done',
      readMode: 'pages',
      listed: 5,
      done: 5,
      callsPerProduct: 1.2,
      // The upload the media step plans after the last product's sync counts with the calls.
      plan: { counts: { products: 5, changed: 5, creates: 0, uploads: 1, patches: 5, deletes: 0, total: 6 } },
    });
    expect(shown.plan?.products.map((p) => p.productId)).toEqual(
      [...PRODUCTS].sort((a, b) => Number(BigInt(a) - BigInt(b))),
    );
    expect(shown.plan?.products[0]?.calls[0]).toMatchObject({ method: 'PATCH', before: { name: 'old 4' } });
    // Paged: after the last product, none.
    expect((await dry.service.show(run.id, PRODUCTS[2])).plan?.products).toEqual([]);

    // A page planned twice (a retry) plans nothing again; a one-product dry run plans its product.
    const one = await dry.service.start(SHOP, PRODUCTS[0] as string, true);
    expect(one).toMatchObject({ scope: 'product', walkDone: false });
    expect(await dry.service.walkPage(one.id)).toBe('last');
    expect(await dry.service.walkPage(one.id)).toBe('stopped');
    expect(dry.planned).toEqual([...PRODUCTS, PRODUCTS[0]]);
    expect(await dry.service.show(one.id)).toMatchObject({
      state: 'done',
      plan: { counts: { products: 1 } },
    });
    expect(dry.enqueued).toEqual([]);
  });

  it('an operator reconciliation lists what it finds; a dry run plans it, a real one enqueues it', async () => {
    const { service, enqueued, planned } = world();
    const dry = await service.startReconcile(SHOP, true);
    expect(dry).toMatchObject({ scope: 'reconcile', dryRun: true, walkDone: false });
    expect(await service.walkPage(dry.id)).toBe('last');
    expect(planned).toEqual(PRODUCTS.slice(3));
    expect(await service.show(dry.id)).toMatchObject({
      state: 'done',
      listed: 2,
      plan: { counts: { patches: 2, uploads: 1, total: 3 } },
    });
    const real = await service.startReconcile(SHOP, false);
    expect(await service.walkPage(real.id)).toBe('last');
    expect(await service.show(real.id)).toMatchObject({ state: 'running', listed: 2, plan: null });
    expect(enqueued).toEqual([]);
    expect(planned).toEqual(PRODUCTS.slice(3));
  });

  it('awaits a sync of each product a running live run listed, until it reports back', async () => {
    // A shop of its own: the other runs of this file leave products queued for SHOP.
    const shop = 'awaits-medium.myshopify.com';
    const run = await runs.create(shop, null);
    await runs.products.listProducts(run, ['11', '12']);
    expect(await runs.products.awaitsSync(shop, '11')).toBe(true);
    expect(await runs.products.awaitsSync(shop, '13')).toBe(false);
    await runs.products.productSynced(shop, '11');
    expect(await runs.products.awaitsSync(shop, '11')).toBe(false);
    // A dry run waits for a plan, not a sync; an ended run waits for nothing.
    const dry = await runs.create(shop, null, { dryRun: true });
    await runs.products.listProducts(dry, ['13']);
    expect(await runs.products.awaitsSync(shop, '13')).toBe(false);
    await runs.finish(run.id, 'cancelled');
    expect(await runs.products.awaitsSync(shop, '12')).toBe(false);
  });
});
