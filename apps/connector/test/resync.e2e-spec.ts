import { randomBytes } from 'node:crypto';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { QueueName } from '../src/platform/queues/queue-names.js';
import { call } from './support/admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { type TestShop, testShop } from './support/test-shop.js';

interface Run {
  id: string;
  state: string;
  pages: number;
  walkDone: boolean;
  listed: number;
  done: number;
  failed: number;
  remaining: number;
  etaSeconds: number | null;
}

// Whole-shop resync runs over the admin API, against the Shopify sandbox: a run walks the shop
// two products per page, survives a restart of the connector in the middle of its walk (the next
// connector resumes from the persisted cursor, the first page is never listed again), and a
// cancelled run stops before its next page.
/**
 * Holds the walk's page requests after the first one (`after` set) while `holding`; `release`
 * lets them go on, `fail` makes them (and any retry) fail like a dropped connection.
 */
class PageGate {
  holding = false;
  failing = false;
  private waiters: Array<{ go: () => void; fail: (error: Error) => void }> = [];
  private onHeld: Array<() => void> = [];

  constructor(private readonly base: () => typeof fetch) {}

  /** Resolves once a page request is held. */
  held(): Promise<void> {
    return new Promise((resolve) => this.onHeld.push(resolve));
  }

  release(): void {
    this.holding = false;
    for (const waiter of this.waiters.splice(0)) waiter.go();
  }

  fail(): void {
    this.holding = false;
    this.failing = true;
    for (const waiter of this.waiters.splice(0)) waiter.fail(new TypeError('fetch failed'));
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const body = typeof init?.body === 'string' ? init.body : '';
    if (body.includes('ConnectorProductIds') && /"after":"/.test(body)) {
      if (this.failing) throw new TypeError('fetch failed');
      if (this.holding) {
        await new Promise<void>((go, fail) => {
          this.waiters.push({ go, fail });
          for (const notify of this.onHeld.splice(0)) notify();
        });
      }
    }
    return this.base()(input, init);
  };
}

describe('resync runs', () => {
  let sandboxes: Sandboxes;
  let shop: TestShop;
  let apiKey: string;
  const token = `admin-${randomBytes(16).toString('hex')}`;
  const schema = `c_${randomBytes(6).toString('hex')}`;
  const harnesses: ConnectorHarness[] = [];
  const products: string[] = [];
  const gate = new PageGate(() => sandboxes.shopifyFetch);

  const start = async (fetchFn: typeof fetch) => {
    const harness = await startConnector({
      shops: [shop],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: apiKey,
      shopifyFetch: fetchFn,
      schema,
      env: { CONNECTOR_ADMIN_TOKEN: token, CONNECTOR_RESYNC_PAGE_SIZE: '2' },
    });
    harnesses.push(harness);
    return harness;
  };
  const admin = <T>(harness: ConnectorHarness, method: string, path: string) =>
    call<T>(harness.url, method, path, token);
  // The walk's pages (2 products each), not the product count before them (threshold + 1).
  const pageRequests = async () =>
    (await sandboxes.adminRequests(shop)).filter(
      (r) => r.operationName === 'ConnectorProductIds' && r.variables?.first === 2,
    );

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    shop = testShop();
    await sandboxes.addShop(shop);
    apiKey = (await sandboxes.account()).apiKey;
    for (let i = 0; i < 5; i++) {
      const created = await sandboxes.merchant(shop, 'POST', 'products.json', {
        product: { title: `Resync ${i}` },
      });
      products.push(String((created.body.product as { id: number }).id));
    }
  });
  afterAll(async () => {
    gate.fail();
    for (const harness of harnesses.reverse()) await harness.close().catch(() => undefined);
    const cleanup = harnesses[0];
    if (cleanup) {
      const pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 1 });
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}_q" CASCADE`).catch(() => undefined);
      await pool.end();
    }
    await sandboxes?.close();
  });

  it('resumes a whole-shop walk from its persisted cursor after a restart, and reports progress', async () => {
    gate.holding = true;
    const first = await start(gate.fetch);
    const held = gate.held();
    const started = await admin<Run>(first, 'POST', `/admin/resync?shop=${shop.domain}`);
    expect(started.status, started.text).toBe(200);
    expect(started.body).toMatchObject({ state: 'running', walkDone: false });
    const runId = started.body.id;
    await held;
    // The first page is listed and its cursor persisted; the second page's request hangs.
    expect((await admin<Run>(first, 'GET', `/admin/resync/${runId}`)).body).toMatchObject({
      pages: 1,
      listed: 2,
    });

    // Stop the connector mid-page: the held request fails as the process goes away.
    const closing = first.connector.close();
    gate.fail();
    await closing;
    gate.failing = false;

    const second = await start(sandboxes.shopifyFetch);
    const run = await eventually(async () => {
      const answer = await admin<Run>(second, 'GET', `/admin/resync/${runId}`);
      return answer.body.state === 'done' && answer.body;
    });
    expect(run).toMatchObject({
      walkDone: true,
      pages: 3,
      listed: 5,
      done: 5,
      failed: 0,
      remaining: 0,
      etaSeconds: null,
    });
    const requests = await pageRequests();
    // Resumed, not restarted: the first page was asked for once, every later one after a cursor.
    expect(
      requests.filter((r) => r.variables?.after === null || r.variables?.after === undefined),
    ).toHaveLength(1);
    const synced = await second.db.query(
      `SELECT product_id::text AS id FROM "${schema}".resync_run_products WHERE run_id = $1 AND state = 'done'`,
      [runId],
    );
    expect(synced.rows.map((r: { id: string }) => r.id).sort()).toEqual([...products].sort());
  });

  it('stops a cancelled run before its next page', async () => {
    const harness = harnesses[harnesses.length - 1] as ConnectorHarness;
    gate.holding = true;
    // The held walk runs in a connector of its own on the same tables and queues.
    const third = await start(gate.fetch);
    const held = gate.held();
    const before = (await pageRequests()).length;
    const started = await admin<Run>(third, 'POST', `/admin/resync?shop=${shop.domain}`);
    const runId = started.body.id;
    await held;
    const cancelled = await admin<Run>(harness, 'POST', `/admin/resync/${runId}/cancel`);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.state).toBe('cancelled');
    gate.release();

    // The held page finishes, finds the run cancelled, and enqueues no further page.
    const queue = third.connector.app.get<Queue>(getQueueToken(QueueName.RESYNC_PAGE), { strict: false });
    await eventually(async () => (await queue.getJob(`resync-${runId}-1`))?.isCompleted());
    expect(await queue.getJob(`resync-${runId}-2`)).toBeUndefined();
    expect((await pageRequests()).length - before).toBe(2);
    const shown = await admin<Run>(harness, 'GET', `/admin/resync/${runId}`);
    expect(shown.body).toMatchObject({ state: 'cancelled', pages: 1, walkDone: false });
    const again = await admin<{ error: { code: string } }>(harness, 'POST', `/admin/resync/${runId}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('run_not_running');
  });

  it('resyncs one product at once, and refuses bad requests', async () => {
    const harness = harnesses[harnesses.length - 1] as ConnectorHarness;
    const one = await admin<Run>(harness, 'POST', `/admin/resync?shop=${shop.domain}&product=${products[0]}`);
    expect(one.body).toMatchObject({ walkDone: true, listed: 1 });
    await eventually(
      async () => (await admin<Run>(harness, 'GET', `/admin/resync/${one.body.id}`)).body.state === 'done',
    );
    expect((await admin(harness, 'POST', `/admin/resync?shop=${shop.domain}&product=abc`)).status).toBe(400);
    expect((await admin(harness, 'POST', '/admin/resync?shop=unknown.myshopify.com')).status).toBe(404);
    expect((await admin(harness, 'GET', '/admin/resync/999999999')).status).toBe(404);
  });
});
