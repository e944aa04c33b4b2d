import { createPostgresBackend, type Job, Queue, withBackend } from 'bullmq';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  type ConnectorProcess,
  type ConnectorWorld,
  eventually,
  runCli,
  startConnectorProcess,
  startConnectorWorld,
} from './support/connector-world.js';

/**
 * The catalog budget of both replicas, and the sandbox's limit for the account: the same rate.
 * Low, so that the limiter sets the pace, not the machine: a second budget's pace (4 calls a
 * second in all) is well within what two replicas reach even on a loaded machine.
 */
const RATE_PER_SECOND = 2;
const CONNECTOR_BURST = 1;
/**
 * How late a granted call may reach the sandbox on a loaded machine (loopback and scheduling
 * jitter; late calls arrive bunched with the ones granted after them): the sandbox's allowance.
 */
const JITTER_MS = 2_000;
const SWEEP_INTERVAL_MS = 400;
/** Enough calls (one POST each) that a second budget would outrun the allowance for seconds. */
const PRODUCTS = 20;

interface SyncRecordRow {
  id: string;
  started_at: Date;
  finished_at: Date;
}

/** What the test reads of a queue, on either backend. */
interface ReadableQueue {
  getJobs(types: Array<'completed' | 'active' | 'failed'>, start: number, end: number): Promise<Job[]>;
  close(): Promise<void>;
}

/** The inbox-sweep queue of the replicas' namespace, on whichever backend they use. */
function sweepQueue(namespace: string): { jobs(): Promise<Job[]>; close(): Promise<void> } {
  const backend = inject('queueBackend');
  let queue: ReadableQueue;
  if (backend.kind === 'redis') {
    const url = new URL(backend.url);
    queue = new Queue('inbox-sweep', {
      prefix: namespace,
      connection: {
        host: url.hostname,
        port: Number(url.port || 6379),
        db: Number(url.pathname.slice(1) || 0),
      },
    }) as unknown as ReadableQueue;
  } else {
    const postgres = withBackend(createPostgresBackend);
    queue = new postgres.Queue('inbox-sweep', {
      connection: { connectionString: backend.url, schema: namespace },
    }) as unknown as ReadableQueue;
  }
  return {
    jobs: async () => (await queue.getJobs(['completed', 'active', 'failed'], 0, 1000)).filter(Boolean),
    close: () => queue.close(),
  };
}

/** When a scheduler's job was due: `repeat:<scheduler>:<millis>` names it. */
function slotOf(job: Job): number {
  const millis = /:(\d+)$/.exec(String(job.id))?.[1];
  return millis === undefined ? job.timestamp + (job.opts.delay ?? 0) : Number(millis);
}

// Two connector PROCESSES on one PostgreSQL schema and one queue namespace, with both sandboxes:
// the catalog budget is one budget across them, the inbox sweep's schedule fires once per
// interval across them, and one product's runs never overlap.
describe('two connector replicas on one stack', () => {
  let world: ConnectorWorld;
  let replicas: ConnectorProcess[] = [];
  let db: pg.Pool;
  const schema = `rep_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;

  beforeAll(async () => {
    world = await startConnectorWorld();
    db = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
    // The sandbox refuses (429) whatever goes beyond the connector's own budget plus JITTER_MS
    // worth of it (burst 1 + 4): jitter on a loaded machine bunches arrivals that one budget
    // granted correctly, but a second budget (twice the pace) spends the allowance within about
    // JITTER_MS and is refused from then on.
    await world.account.controls.setRateLimit({
      enabled: true,
      ratePerSecond: RATE_PER_SECOND,
      burst: CONNECTOR_BURST + Math.ceil((JITTER_MS * RATE_PER_SECOND) / 1_000),
    });
    const env = world.env({
      CONNECTOR_CATALOG_RATE_PER_SECOND: String(RATE_PER_SECOND),
      CONNECTOR_CATALOG_RATE_BURST: String(CONNECTOR_BURST),
      CONNECTOR_INBOX_SWEEP_INTERVAL_MS: String(SWEEP_INTERVAL_MS),
      CONNECTOR_SYNC_CONCURRENCY: '4',
    });
    replicas = await Promise.all([startConnectorProcess(env, schema), startConnectorProcess(env, schema)]);
    // Shopify delivers to the first replica; the queue hands the work to both.
    const subscribed = await runCli(['register-webhooks', '--public-url', replicas[0]?.url as string], env);
    expect(subscribed.code, subscribed.stderr).toBe(0);
  });
  afterAll(async () => {
    await Promise.allSettled(replicas.map((replica) => replica.stop()));
    await db?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await db?.query(`DROP SCHEMA IF EXISTS "${schema}_q" CASCADE`).catch(() => undefined);
    await db?.end();
    await world?.close();
  });

  it('share one catalog budget: both sync, and the sandbox limited to that budget (plus jitter) never answers 429', async () => {
    const ids: string[] = [];
    for (let i = 0; i < PRODUCTS; i += 1) {
      ids.push(
        await world.createProduct({ title: `Replica shirt ${i}`, vendor: 'Acme', product_type: 'Shirts' }),
      );
    }
    await eventually(async () => {
      const { rows } = await db.query<{ count: string }>(
        `SELECT count(DISTINCT product_id)::text AS count FROM "${schema}".sync_records
          WHERE shop = $1 AND outcome = 'synced' AND product_id = ANY($2::bigint[])`,
        [world.shop.domain, ids],
      );
      return Number(rows[0]?.count) === PRODUCTS;
    }, 90_000);
    const requests = await world.account.controls.requests();
    expect(
      requests.filter((r) => r.method === 'POST' && r.path === '/v1/products').length,
    ).toBeGreaterThanOrEqual(PRODUCTS);
    // The connector waits out a 429 and retries (the sync above completes either way), so only
    // the sandbox's log shows a second budget: refusals. With one shared budget there are none.
    expect(requests.filter((r) => r.status === 429)).toEqual([]);
    // both replicas ran sync jobs (each counts its own)
    for (const replica of replicas) {
      const metrics = await (await fetch(`${replica.url}/metrics`)).text();
      const runs = metrics
        .split('\n')
        .filter((line) => line.startsWith('connector_jobs_total{') && line.includes('kind="sync-product"'))
        .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
      expect(runs, `${replica.url} ran no sync job`).toBeGreaterThan(0);
    }
  });

  it('fire the inbox sweep once per interval across both, never once per replica', async () => {
    const queue = sweepQueue(`${schema}_q`);
    try {
      const jobs = await eventually(async () => {
        const all = await queue.jobs();
        return all.length >= 6 && all;
      }, 60_000);
      const slots = jobs.map(slotOf).sort((a, b) => a - b);
      // one job per due time; consecutive ones an interval apart (a second schedule would put
      // jobs in between)
      expect(new Set(slots).size).toBe(slots.length);
      const gaps = slots.slice(1).map((slot, i) => slot - (slots[i] as number));
      expect(gaps.filter((gap) => gap < SWEEP_INTERVAL_MS)).toEqual([]);
    } finally {
      await queue.close();
    }
  });

  it("serialise one product's work: a burst of merchant edits makes runs that never overlap", async () => {
    const productId = await world.createProduct({
      title: 'Edited often',
      vendor: 'Acme',
      product_type: 'Shirts',
    });
    for (let i = 0; i < 10; i += 1) {
      const answer = await fetch(`${world.shopify.adminUrl}/products/${productId}.json`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': world.shop.accessToken },
        body: JSON.stringify({ product: { title: `Edited often, edit ${i}` } }),
      });
      expect(answer.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 120));
    }
    // the last edit reached the catalog, and every delivery of the product is processed
    const supplierSku = `${world.shop.domain.replace('.myshopify.com', '')}:product:${productId}`;
    await eventually(async () => {
      const found = await world.account.api
        .post('/v1/products/search')
        .send({ filter: { supplierSku: { $eq: supplierSku } } });
      const product = found.body?.data?.products?.[0] as
        | { attributes: Array<{ key: string; value: unknown }> }
        | undefined;
      if (product?.attributes.find((a) => a.key === 'name')?.value !== 'Edited often, edit 9') return false;
      const { rows } = await db.query<{ open: string }>(
        `SELECT count(*) FILTER (WHERE state <> 'done')::text AS open
           FROM "${schema}".inbox WHERE shop = $1 AND product_id = $2::bigint`,
        [world.shop.domain, productId],
      );
      return rows[0]?.open === '0';
    }, 170_000);
    const { rows: records } = await db.query<SyncRecordRow>(
      `SELECT id::text, started_at, finished_at FROM "${schema}".sync_records
        WHERE shop = $1 AND product_id = $2::bigint ORDER BY started_at`,
      [world.shop.domain, productId],
    );
    expect(records.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < records.length; i += 1) {
      const previous = records[i - 1] as SyncRecordRow;
      const current = records[i] as SyncRecordRow;
      expect(
        current.started_at.getTime(),
        `run ${current.id} started before run ${previous.id} finished`,
      ).toBeGreaterThanOrEqual(previous.finished_at.getTime());
    }
  }, 200_000);
});
