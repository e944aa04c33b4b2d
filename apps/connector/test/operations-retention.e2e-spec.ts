import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, sample } from './support/admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { productUpdateBody, type TestShop, testShop } from './support/test-shop.js';

// Retention end to end: the scheduler enqueues the retention job on its interval, and the job
// prunes what is old enough (here: every finished delivery and every resolved failure, ages 0),
// never an open failure.
describe('retention on its schedule', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  let broken: TestShop;
  const token = `admin-${randomBytes(16).toString('hex')}`;

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    broken = testShop();
    await sandboxes.addShop(broken);
    harness = await startConnector({
      shops: [{ ...broken, accessToken: 'shpat_revoked' }],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: (await sandboxes.account()).apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      env: {
        CONNECTOR_ADMIN_TOKEN: token,
        CONNECTOR_RETENTION_INTERVAL_MS: '300',
        CONNECTOR_RETENTION_INBOX_DAYS: '0',
        CONNECTOR_RETENTION_FAILURES_DAYS: '0',
        CONNECTOR_RETENTION_SYNC_RECORDS_DAYS: '0',
        CONNECTOR_RETENTION_RESYNC_RUNS_DAYS: '0',
      },
    });
  });
  afterAll(async () => {
    await harness?.close();
    await sandboxes?.close();
  });

  it('prunes finished deliveries and resolved failures; keeps open failures and unfinished deliveries', async () => {
    const [dismissed, kept] = ['7390000444001', '7390000444002'];
    for (const productId of [dismissed, kept]) {
      await harness.deliver({ shop: broken, body: productUpdateBody(productId, new Date().toISOString()) });
    }
    type Page = { items: Array<{ id: string; subjectKey: string }> };
    const open = await eventually(async () => {
      const page = await call<Page>(harness.url, 'GET', '/admin/failures?state=open', token);
      return page.body.items.length === 2 && page.body.items;
    });
    const toDismiss = open.find((f) => f.subjectKey === dismissed) as { id: string };
    expect((await call(harness.url, 'POST', `/admin/failures/${toDismiss.id}/dismiss`, token)).status).toBe(
      200,
    );

    // A finished delivery (as a synced one ends): pruned on the next run.
    await harness.db.query(
      `INSERT INTO "${harness.schema}".inbox (shop, webhook_id, topic, body_bytes, state, received_at)
       VALUES ($1, 'wh-finished', 'products/update', 0, 'done', now())`,
      [broken.domain],
    );
    await eventually(async () => {
      const rows = await harness.inbox(broken.domain);
      return !rows.some((row) => row.webhook_id === 'wh-finished') && rows;
    });
    // The failed products' deliveries were never synced (state received): the sweeper's, kept.
    const rows = await harness.inbox(broken.domain);
    expect(rows.map((row) => row.state)).toEqual(['received', 'received']);
    await eventually(
      async () => (await call(harness.url, 'GET', `/admin/failures/${toDismiss.id}`, token)).status === 404,
    );
    const left = await call<Page>(harness.url, 'GET', '/admin/failures', token);
    expect(left.body.items.map((f) => f.subjectKey)).toEqual([kept]);
    const metrics = (await call(harness.url, 'GET', '/metrics')).text;
    expect(sample(metrics, 'connector_jobs_total', { kind: 'retention' })).toBeGreaterThanOrEqual(1);
  });

  it("prunes the sync stage's run records and the resync stage's ended runs (registered by each stage)", async () => {
    const q = `"${harness.schema}"`;
    await harness.db.query(
      `INSERT INTO ${q}.sync_records (shop, product_id, reason, outcome, started_at, finished_at)
       VALUES ($1, 7390000444003, 'webhook', 'synced', now(), now())`,
      [broken.domain],
    );
    const insertRun = async (state: string) => {
      const { rows } = await harness.db.query<{ id: string }>(
        `INSERT INTO ${q}.resync_runs (shop, scope, product_id, state, walk_done, created_at, updated_at, finished_at)
         VALUES ($1, 'product', 7390000444003, $2, true, now(), now(), CASE WHEN $2 = 'running' THEN NULL ELSE now() END)
         RETURNING id::text`,
        [broken.domain, state],
      );
      const id = rows[0]?.id as string;
      await harness.db.query(
        `INSERT INTO ${q}.resync_run_products (run_id, shop, product_id, enqueued_at) VALUES ($1, $2, 7390000444003, now())`,
        [id, broken.domain],
      );
      return id;
    };
    const done = await insertRun('done');
    const running = await insertRun('running');
    await eventually(async () => {
      const { rows } = await harness.db.query(`SELECT 1 FROM ${q}.sync_records WHERE shop = $1`, [
        broken.domain,
      ]);
      return rows.length === 0;
    });
    await eventually(async () => {
      const { rows } = await harness.db.query<{ id: string }>(
        `SELECT id::text FROM ${q}.resync_runs WHERE shop = $1`,
        [broken.domain],
      );
      return rows.length === 1 && rows;
    });
    const runs = await harness.db.query<{ id: string }>(
      `SELECT id::text FROM ${q}.resync_runs WHERE shop = $1`,
      [broken.domain],
    );
    expect(runs.rows.map((r) => r.id)).toEqual([running]);
    expect(runs.rows.map((r) => r.id)).not.toContain(done);
    const products = await harness.db.query<{ run_id: string }>(
      `SELECT run_id::text FROM ${q}.resync_run_products WHERE shop = $1`,
      [broken.domain],
    );
    expect(products.rows.map((r) => r.run_id)).toEqual([running]);
    const metrics = (await call(harness.url, 'GET', '/metrics')).text;
    expect(sample(metrics, 'connector_jobs_total', { kind: 'retention' })).toBeGreaterThanOrEqual(1);
  });
});
