import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  type ConnectorProcess,
  type ConnectorWorld,
  eventually,
  startConnectorProcess,
  startConnectorWorld,
} from './support/connector-world.js';

interface Run {
  id: string;
  state: string;
  readMode: string | null;
  walkDone: boolean;
  bulkAttempts: Array<{ operationId: string | null; outcome: string }>;
  listed: number;
  done: number;
  failed: number;
}

interface SandboxBulkRun {
  id: string;
  status: string;
  errorCode: string | null;
}

const COUNT = 300;
/** Merchant creations at once (the sandbox's REST API, as the other stack tests call it). */
const PARALLEL = 25;

// Issue 29's acceptance: a real connector process with the bulk threshold at 10 resyncs a
// 300-product shop through a bulk operation. Nothing wraps the process's fetch: the Shopify
// sandbox's bulk faults, set for the next operation only (`"runs": 1`), break the run's first
// operation (half way, then an expired link) and let its second one through. Each run syncs
// every product exactly once from the bulk read's snapshot, without a canonical read.
describe('a connector process resyncs a 300-product shop through a bulk operation', () => {
  let world: ConnectorWorld;
  let connector: ConnectorProcess;
  let db: pg.Pool;
  const schema = `bulk_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
  const products: string[] = [];

  const shopControl = (method: string, path: string, body?: unknown) =>
    world.shopify.control(method, `shops/${world.shop.domain}/${path}`, body);
  const admin = async <T>(method: string, path: string): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${connector.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${world.adminToken}` },
    });
    return { status: response.status, body: (await response.json()) as T };
  };
  const sandboxRuns = async () =>
    (await shopControl('GET', 'bulk-operations')).body.bulkOperations as SandboxBulkRun[];

  beforeAll(async () => {
    world = await startConnectorWorld();
    db = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
    for (let start = 0; start < COUNT; start += PARALLEL) {
      const batch = Array.from({ length: Math.min(PARALLEL, COUNT - start) }, (_, k) => start + k);
      products.push(
        ...(await Promise.all(
          batch.map((i) =>
            world.createProduct({
              title: `Bulk ${i}`,
              vendor: 'Acme',
              product_type: 'Shirts',
              variants: [{ sku: `BULK-${i}`, price: '5.00' }],
            }),
          ),
        )),
      );
    }
    // The world's catalog account has no rate limit: the connector's own budget sets the pace.
    connector = await startConnectorProcess(
      world.env({
        CONNECTOR_BULK_THRESHOLD: '10',
        CONNECTOR_BULK_POLL_MS: '50',
        CONNECTOR_CATALOG_RATE_PER_SECOND: '200',
        CONNECTOR_CATALOG_RATE_BURST: '50',
      }),
      schema,
    );
  }, 120_000);
  afterAll(async () => {
    await connector?.stop();
    await db?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await db?.query(`DROP SCHEMA IF EXISTS "${schema}_q" CASCADE`).catch(() => undefined);
    await db?.end();
    await world?.close();
  });

  /**
   * Sets `fault` for the shop's next bulk operation only, resyncs the whole shop and waits for
   * the run to end; resolves to the run and the sandbox's operations it started.
   */
  async function resyncWith(
    fault: Record<string, unknown>,
  ): Promise<{ run: Run; operations: SandboxBulkRun[] }> {
    const armed = await shopControl('PUT', 'bulk-faults', { ...fault, runs: 1 });
    expect(armed.status).toBe(200);
    const before = (await sandboxRuns()).length;
    const started = await admin<Run>('POST', `/admin/resync?shop=${world.shop.domain}`);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const run = await eventually(async () => {
      const answer = await admin<Run>('GET', `/admin/resync/${started.body.id}`);
      return answer.body.state !== 'running' && answer.body;
    }, 90_000);
    // The fault was used up by the run's first operation; the shop is back to no faults.
    expect((await shopControl('GET', 'bulk-faults')).body).toMatchObject({
      faults: { failHalfway: false },
      nextRuns: [],
    });
    return { run, operations: (await sandboxRuns()).slice(before) };
  }

  /** Each product's syncs that planned from the run's bulk read. */
  async function syncsPerProduct(runId: string): Promise<Map<string, number>> {
    const { rows } = await db.query<{ id: string; n: number }>(
      `SELECT product_id::text AS id, count(*)::int AS n
         FROM "${schema}".sync_records
        WHERE reason = 'resync' AND outcome = 'synced' AND events @> $1::jsonb
        GROUP BY product_id`,
      [JSON.stringify([`planned from the bulk read of resync run ${runId}`])],
    );
    return new Map(rows.map((r) => [r.id, r.n]));
  }

  /** Every product synced exactly once from the run's snapshot, and no canonical read at all. */
  async function expectSyncedOnceFromTheSnapshot(runId: string): Promise<void> {
    const synced = await syncsPerProduct(runId);
    expect([...synced.keys()].sort()).toEqual([...products].sort());
    expect([...synced.values()].filter((n) => n !== 1)).toEqual([]);
    const log = (await shopControl('GET', 'admin-requests?api=graphql')).body.requests as Array<{
      operationName: string | null;
    }>;
    expect(log.filter((r) => r.operationName === 'CanonicalProduct')).toEqual([]);
  }

  it('reads the shop with a second operation after one that failed half way', async () => {
    const { run, operations } = await resyncWith({ failHalfway: true });
    expect(run).toMatchObject({
      state: 'done',
      readMode: 'bulk',
      walkDone: true,
      listed: COUNT,
      done: COUNT,
      failed: 0,
    });
    expect(run.bulkAttempts.map((a) => a.outcome)).toEqual(['FAILED:INTERNAL_SERVER_ERROR', 'completed']);
    expect(operations.map((o) => [o.id, o.status, o.errorCode])).toEqual([
      [run.bulkAttempts[0]?.operationId, 'FAILED', 'INTERNAL_SERVER_ERROR'],
      [run.bulkAttempts[1]?.operationId, 'COMPLETED', null],
    ]);
    await expectSyncedOnceFromTheSnapshot(run.id);
  });

  it('reads the shop with a second operation after one whose link expired', async () => {
    const { run, operations } = await resyncWith({ urlTtlMs: 1 });
    expect(run).toMatchObject({
      state: 'done',
      readMode: 'bulk',
      walkDone: true,
      listed: COUNT,
      done: COUNT,
      failed: 0,
    });
    expect(run.bulkAttempts).toHaveLength(2);
    expect(run.bulkAttempts[0]?.outcome).toMatch(/^(EXPIRED|download:4\d\d)$/);
    expect(run.bulkAttempts[1]?.outcome).toBe('completed');
    // The first operation's results went with it (it keeps its 1 ms); the second keeps 7 days.
    expect(operations.map((o) => [o.id, o.status])).toEqual([
      [run.bulkAttempts[0]?.operationId, 'EXPIRED'],
      [run.bulkAttempts[1]?.operationId, 'COMPLETED'],
    ]);
    await expectSyncedOnceFromTheSnapshot(run.id);
    // Over both runs: one resync sync per product and run, whatever either read.
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "${schema}".sync_records WHERE reason = 'resync' GROUP BY product_id`,
    );
    expect(rows).toHaveLength(COUNT);
    expect(rows.filter((r) => r.n !== 2)).toEqual([]);
  });
});
