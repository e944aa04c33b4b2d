import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { queueTestKit } from './queue-backend.js';
import { uniqueId } from './unique-id.js';

// Proves the medium-test harness: a real PostgreSQL (given or embedded) and a real queue
// backend (Redis when REDIS_URL is set, BullMQ's PostgreSQL backend otherwise).
describe('test infrastructure', () => {
  const closers: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it('connects to PostgreSQL and can use a schema of its own', async () => {
    const client = new pg.Client({ connectionString: inject('databaseUrl') });
    await client.connect();
    closers.push(() => client.end());
    const schema = uniqueId('s').replace('-', '_');
    await client.query(`CREATE SCHEMA ${schema}`);
    await client.query(`CREATE TABLE ${schema}.probe (n int)`);
    await client.query(`INSERT INTO ${schema}.probe VALUES (41), (1)`);
    const { rows } = await client.query(`SELECT sum(n)::int AS total FROM ${schema}.probe`);
    expect(rows[0].total).toBe(42);
    await client.query(`DROP SCHEMA ${schema} CASCADE`);
  });

  it('runs a job through a real queue and worker', async () => {
    const kit = queueTestKit(inject('queueBackend'));
    const queue = kit.queue<{ n: number }>('probe');
    const done = new Promise<number>((resolve) => {
      const worker = kit.worker<{ n: number }, number>('probe', async (data) => {
        resolve(data.n * 2);
        return data.n * 2;
      });
      closers.push(() => worker.close());
    });
    closers.push(() => queue.close());
    await queue.add('double', { n: 21 });
    expect(await done).toBe(42);
  });
});
