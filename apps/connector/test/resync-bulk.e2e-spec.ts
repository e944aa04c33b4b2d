import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { productUpdateBody, type TestShop, testShop } from './support/test-shop.js';

interface Run {
  id: string;
  createdAt: string;
  state: string;
  readMode: string | null;
  bulkAttempts: Array<{ operationId: string | null; outcome: string }>;
  walkDone: boolean;
  listed: number;
  done: number;
  failed: number;
}

const COUNT = 300;

// Whole-shop resyncs above the bulk threshold (10) of a 300-product shop, against the Shopify
// sandbox's bulk operations: the first run's operation fails half way and the second one's
// link expires before it is downloaded (the sandbox's bulk faults, mended right before the
// connector's next attempt);
// each run reads the shop with a second operation and syncs every product exactly once, from
// the bulk read's snapshot, without a canonical read.
describe('resync through a bulk operation', () => {
  let sandboxes: Sandboxes;
  let shop: TestShop;
  let harness: ConnectorHarness;
  const token = `admin-${randomBytes(16).toString('hex')}`;
  const products: string[] = [];
  /**
   * The bulk faults to mend right before the connector asks for its second bulk operation: the
   * fetch counts the operations asked for (`runsBeforeMend`), so no polling races the connector.
   */
  let mend: { faults: Record<string, null>; runsBeforeMend: number } | null = null;
  /**
   * Holds the first operation's download until its link has expired. Dropped when the next
   * operation is asked for: the first one may have been seen `EXPIRED` and never downloaded.
   */
  let holdNextDownloadUntilExpired = false;
  /** A product whose next sync fails right after its read (once). */
  let failOnce: string | null = null;
  /** Runs before the next download of results (after the operation began). */
  let beforeNextDownload: (() => Promise<void>) | null = null;

  const faults = (body: Record<string, unknown>) =>
    sandboxes.shopify.control('PUT', `shops/${shop.domain}/bulk-faults`, body);
  const admin = <T>(method: string, path: string) => call<T>(harness.url, method, path, token);

  beforeAll(async () => {
    sandboxes = await startSandboxes({ bulk: { stepMs: 50 } });
    shop = testShop();
    await sandboxes.addShop(shop);
    const apiKey = (await sandboxes.account()).apiKey;
    for (let i = 0; i < COUNT; i += 25) {
      const created = await Promise.all(
        Array.from({ length: Math.min(25, COUNT - i) }, (_, j) =>
          sandboxes.merchant(shop, 'POST', 'products.json', {
            product: { title: `Bulk ${i + j}`, variants: [{ sku: `BULK-${i + j}`, price: '5.00' }] },
          }),
        ),
      );
      for (const answer of created) products.push(String((answer.body.product as { id: number }).id));
    }
    const base = sandboxes.shopifyFetch;
    harness = await startConnector({
      shops: [shop],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: apiKey,
      shopifyFetch: async (input, init) => {
        const url = typeof input === 'string' || input instanceof URL ? String(input) : input.url;
        if (url.includes('/bulk-operation-outputs/') && holdNextDownloadUntilExpired) {
          holdNextDownloadUntilExpired = false;
          // The sandbox runs on the wall clock here: wait until the link's own expiry has passed.
          const expires = Number(new URL(url).searchParams.get('Expires')) * 1000;
          await eventually(async () => Date.now() > expires, 30_000);
        }
        if (url.includes('/bulk-operation-outputs/') && beforeNextDownload !== null) {
          const before = beforeNextDownload;
          beforeNextDownload = null;
          await before();
        }
        const body = typeof init?.body === 'string' ? init.body : '';
        if (body.includes('ConnectorBulkRunQuery') && mend !== null) {
          if (mend.runsBeforeMend > 0) {
            mend.runsBeforeMend -= 1;
          } else {
            const mended = mend.faults;
            mend = null;
            holdNextDownloadUntilExpired = false;
            const answer = await faults(mended);
            if (answer.status !== 200) throw new Error(`could not mend the bulk faults: ${answer.status}`);
          }
        }
        return base(input, init);
      },
      syncHooks: {
        afterShopifyRead: async ({ productId }) => {
          if (productId !== failOnce) return;
          failOnce = null;
          throw new Error('a failure right after the read');
        },
      },
      env: {
        CONNECTOR_ADMIN_TOKEN: token,
        CONNECTOR_BULK_THRESHOLD: '10',
        CONNECTOR_BULK_POLL_MS: '50',
        CONNECTOR_CATALOG_RATE_PER_SECOND: '1000',
        CONNECTOR_CATALOG_RATE_BURST: '50',
      },
    });
  }, 120_000);
  afterAll(async () => {
    await harness?.close();
    await sandboxes?.close();
  });

  /** Starts a whole-shop run with `fault` on for its first operation, mended before the second. */
  async function resync(fault: Record<string, unknown>, mended: Record<string, null>): Promise<Run> {
    const armed = await faults(fault);
    expect(armed.status).toBe(200);
    mend = { faults: mended, runsBeforeMend: 1 };
    const started = await admin<Run>('POST', `/admin/resync?shop=${shop.domain}`);
    expect(started.status, started.text).toBe(200);
    const run = await eventually(async () => {
      const answer = await admin<Run>('GET', `/admin/resync/${started.body.id}`);
      return answer.body.state !== 'running' && answer.body;
    }, 120_000);
    expect(mend, 'the fault was mended before a second operation').toBeNull();
    return run;
  }

  /** Each product's syncs that planned from the run's bulk read. */
  async function syncsPerProduct(runId: string): Promise<Map<string, number>> {
    const { rows } = await harness.db.query<{ id: string; n: number }>(
      `SELECT product_id::text AS id, count(*)::int AS n
         FROM "${harness.schema}".sync_records
        WHERE reason = 'resync' AND outcome = 'synced' AND events @> $1::jsonb
        GROUP BY product_id`,
      [JSON.stringify([`planned from the bulk read of resync run ${runId}`])],
    );
    return new Map(rows.map((r) => [r.id, r.n]));
  }

  it('reads the shop again after an operation that failed half way, and syncs every product once from it', async () => {
    const run = await resync({ failHalfway: true }, { failHalfway: null });
    expect(run).toMatchObject({
      state: 'done',
      readMode: 'bulk',
      walkDone: true,
      listed: COUNT,
      done: COUNT,
      failed: 0,
    });
    expect(run.bulkAttempts.map((a) => a.outcome)).toEqual(['FAILED:INTERNAL_SERVER_ERROR', 'completed']);
    const synced = await syncsPerProduct(run.id);
    expect([...synced.keys()].sort()).toEqual([...products].sort());
    expect([...synced.values()].every((n) => n === 1)).toBe(true);
    const reads = (await sandboxes.adminRequests(shop)).filter((r) => r.operationName === 'CanonicalProduct');
    expect(reads).toEqual([]);
    const { rows } = await harness.db.query(
      `SELECT count(*)::int AS n FROM "${harness.schema}".resync_snapshots`,
    );
    expect(rows[0].n).toBe(0);
  });

  it('reads the shop again after a link that expired, and syncs every product once from it', async () => {
    holdNextDownloadUntilExpired = true;
    const run = await resync({ urlTtlMs: 1 }, { urlTtlMs: null });
    expect(run).toMatchObject({ state: 'done', readMode: 'bulk', listed: COUNT, done: COUNT, failed: 0 });
    expect(run.bulkAttempts).toHaveLength(2);
    expect(run.bulkAttempts[0]?.outcome).toMatch(/^(EXPIRED|download:4\d\d)$/);
    expect(run.bulkAttempts[1]?.outcome).toBe('completed');
    const synced = await syncsPerProduct(run.id);
    expect(synced.size).toBe(COUNT);
    expect([...synced.values()].every((n) => n === 1)).toBe(true);
    // Over both runs, whatever they read: one resync sync per product and run.
    const { rows } = await harness.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "${harness.schema}".sync_records WHERE reason = 'resync' GROUP BY product_id`,
    );
    expect(rows).toHaveLength(COUNT);
    expect(rows.every((r) => r.n === 2)).toBe(true);
    const reads = (await sandboxes.adminRequests(shop)).filter((r) => r.operationName === 'CanonicalProduct');
    expect(reads).toEqual([]);
  });

  it('reads a product edited after the bulk read began, or whose sync failed once, from Shopify', async () => {
    const edited = products[7] as string;
    const failed = products[8] as string;
    failOnce = failed;
    beforeNextDownload = async () => {
      const answer = await sandboxes.merchant(shop, 'PUT', `products/${edited}.json`, {
        product: { id: Number(edited), title: 'Edited during the bulk read' },
      });
      expect(answer.status).toBe(200);
      const delivered = await harness.deliver({
        shop,
        body: productUpdateBody(edited, new Date().toISOString(), 'Edited during the bulk read'),
      });
      expect(delivered.status).toBe(200);
    };
    const started = await admin<Run>('POST', `/admin/resync?shop=${shop.domain}`);
    const run = await eventually(async () => {
      const answer = await admin<Run>('GET', `/admin/resync/${started.body.id}`);
      return answer.body.state !== 'running' && answer.body;
    }, 120_000);
    expect(run).toMatchObject({ state: 'done', readMode: 'bulk', done: COUNT });
    const synced = await syncsPerProduct(run.id);
    expect(synced.size).toBe(COUNT - 2);
    expect(synced.has(edited)).toBe(false);
    expect(synced.has(failed)).toBe(false);
    const requests = await sandboxes.adminRequests(shop);
    for (const id of [edited, failed]) {
      const reads = requests.filter(
        (r) =>
          r.operationName === 'CanonicalProduct' &&
          (r.variables as { id?: string } | null)?.id === `gid://shopify/Product/${id}`,
      );
      expect(reads.length, id).toBeGreaterThanOrEqual(1);
    }
    const { rows: outcomes } = await harness.db.query<{ outcome: string; events: string[] }>(
      `SELECT outcome, events FROM "${harness.schema}".sync_records WHERE product_id = $1 AND started_at >= $2 ORDER BY id`,
      [failed, run.createdAt],
    );
    // The failed run planned from the snapshot; its retry read the product from Shopify.
    expect(outcomes.map((o) => o.outcome)).toEqual(['failed', 'synced']);
    expect(outcomes[1]?.events).toEqual([
      expect.stringMatching(/^read from Shopify \(requested cost \d+ points\)$/),
    ]);
    const { rows } = await harness.db.query(
      `SELECT count(*)::int AS n FROM "${harness.schema}".resync_snapshots`,
    );
    expect(rows[0].n).toBe(0);
  });
});
