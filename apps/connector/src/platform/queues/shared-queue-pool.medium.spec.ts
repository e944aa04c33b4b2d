import { randomBytes } from 'node:crypto';
import { createPostgresBackend, withBackend } from 'bullmq';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { hardenPostgresBackend } from './postgres-backend-hardening.js';
import { queueConnectionCount, sharePostgresPool } from './shared-queue-pool.js';

// BullMQ's PostgreSQL backend, as the connector builds it (`queueConnection`): 12 queues and 12
// workers, the connector's count, on one shared pool of 4. A burst reading every queue at once
// (what the queues board does) and jobs on every worker stay within the pool plus one LISTEN
// connection per worker, as pg_stat_activity counts them; the last backend closed ends the pool.
const QUEUES = 12;
const POOL = 4;
const url = inject('databaseUrl');
const admin = new pg.Pool({ connectionString: url, max: 1 });

afterAll(() => admin.end());

/** This test's connections: its pool's (by application name) and its workers' LISTEN ones (by queue name). */
async function connections(app: string, prefix: string): Promise<number> {
  const { rows } = await admin.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 OR application_name LIKE $2`,
    [app, `${prefix}%`],
  );
  return rows[0]?.n ?? 0;
}

async function burst(factory: typeof createPostgresBackend, pool: number) {
  const id = randomBytes(4).toString('hex');
  const app = `pool-test-${id}`;
  const prefix = `q${id}-`;
  const connection = {
    connectionString: url,
    schema: `pool_${id}`,
    migrate: true,
    max: pool,
    application_name: app,
  };
  const { Queue, Worker } = withBackend(factory);
  const names = Array.from({ length: QUEUES }, (_, i) => `${prefix}${i}`);
  const queues = names.map((name) => new Queue(name, { connection }));
  const done: string[] = [];
  const workers = names.map(
    (name) =>
      new Worker(
        name,
        async (job) => {
          done.push(String(job.id));
        },
        { connection, concurrency: 4 },
      ),
  );
  let peak = 0;
  const sample = async () => {
    peak = Math.max(peak, await connections(app, prefix));
  };
  try {
    await Promise.all([...workers, ...queues].map((b) => b.waitUntilReady()));
    await sample();
    for (let round = 0; round < 3; round++) {
      await Promise.all([
        ...queues.flatMap((q) => [
          q.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed'),
          q.getJobCounts('waiting'),
          q.addBulk(Array.from({ length: 5 }, (_, i) => ({ name: 'job', data: { i } }))),
        ]),
        sample(),
      ]);
      await sample();
    }
    const deadline = Date.now() + 30_000;
    while (done.length < QUEUES * 15 && Date.now() < deadline) {
      await sample();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await sample();
    const counted = queueConnectionCount(connection);
    return { peak, done: done.length, counted, app, prefix, connection };
  } finally {
    await Promise.all([...workers.map((w) => w.close()), ...queues.map((q) => q.close())]);
    await admin.query(`DROP SCHEMA IF EXISTS "pool_${id}" CASCADE`);
  }
}

describe('the queues on one shared PostgreSQL pool', () => {
  it('stay within the pool plus one LISTEN connection per worker, and end the pool with the last backend', async () => {
    const factory = hardenPostgresBackend(sharePostgresPool(createPostgresBackend), 500);
    const run = await burst(factory, POOL);
    expect(run.done).toBe(QUEUES * 15);
    expect(run.peak).toBeGreaterThan(0);
    expect(run.peak).toBeLessThanOrEqual(POOL + QUEUES);
    // What the process counts of itself (the metric) is what the server counts.
    expect(run.counted.pool).toBeLessThanOrEqual(POOL);
    expect(run.counted.listeners).toBe(QUEUES);
    // Every backend closed: the shared pool ended, nothing of it left open on the server.
    expect(queueConnectionCount(run.connection)).toEqual({ pool: 0, waiting: 0, listeners: 0 });
    const deadline = Date.now() + 10_000;
    while ((await connections(run.app, run.prefix)) > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await connections(run.app, run.prefix)).toBe(0);
  });

  it('without it, each queue and worker opens a pool of its own (the bound above is the change)', async () => {
    // Pools of 2 each (not 10, pg's default): enough to show it, without crowding the server.
    const run = await burst(hardenPostgresBackend(createPostgresBackend, 500), 2);
    expect(run.peak).toBeGreaterThan(POOL + QUEUES);
  });
});
