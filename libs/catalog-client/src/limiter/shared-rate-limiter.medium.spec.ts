import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { uniqueId } from '#lib/testing';
import { PostgresRateLimiter } from './postgres-rate-limiter.js';
import type { QueuedRateLimiter } from './queued-rate-limiter.js';
import { RedisRateLimiter } from './redis-rate-limiter.js';

interface Backend {
  name: string;
  available: boolean;
  /** A limiter on a connection of its own, for the given bucket. */
  limiter(
    bucket: string,
    budget: { ratePerSecond: number; burst: number },
    clock: ManualClock,
  ): QueuedRateLimiter;
  /** Names the store holds (Redis keys, PostgreSQL bucket rows). */
  storedNames(): Promise<string[]>;
}

const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

const queueBackend = inject('queueBackend');
const databaseUrl = inject('databaseUrl');
const prefix = `${uniqueId('rl')}:`;
const schema = uniqueId('rl').replace('-', '_');

const backends: Backend[] = [
  {
    name: 'Redis',
    // `.ci/run` provides REDIS_URL on this machine; without it the queue backend is PostgreSQL
    // and there is no Redis to test against.
    available: queueBackend.kind === 'redis',
    limiter(bucket, budget, clock) {
      const redis = new Redis(queueBackend.url, { lazyConnect: false, maxRetriesPerRequest: 1 });
      closers.push(() => redis.quit());
      return new RedisRateLimiter({ redis, bucket, prefix, clock, timeSource: 'clock', ...budget });
    },
    async storedNames() {
      const redis = new Redis(queueBackend.url);
      try {
        return await redis.keys(`${prefix}*`);
      } finally {
        await redis.quit();
      }
    },
  },
  {
    name: 'PostgreSQL',
    available: true,
    limiter(bucket, budget, clock) {
      const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
      closers.push(() => pool.end());
      return new PostgresRateLimiter({ pool, bucket, schema, clock, timeSource: 'clock', ...budget });
    },
    async storedNames() {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ bucket: string }>(
          `SELECT bucket FROM "${schema}".catalog_rate_buckets`,
        );
        return rows.map((r) => r.bucket);
      } finally {
        await client.end();
      }
    },
  },
];

describe.each(backends)('$name rate limiter', (backend) => {
  const T = Date.UTC(2026, 5, 1);

  it.skipIf(!backend.available)(
    'two instances share one budget: same grants as the in-process algorithm',
    async () => {
      const clock = new ManualClock(T);
      const bucket = uniqueId('b');
      const a = backend.limiter(bucket, { ratePerSecond: 4, burst: 1 }, clock);
      const b = backend.limiter(bucket, { ratePerSecond: 4, burst: 1 }, clock);
      expect(await a.take(T)).toEqual({ granted: true });
      expect(await b.take(T)).toEqual({ granted: false, waitMs: 250 });
      expect(await b.take(T + 249)).toEqual({ granted: false, waitMs: 1 });
      expect(await b.take(T + 250)).toEqual({ granted: true });
      expect(await a.take(T + 250)).toEqual({ granted: false, waitMs: 250 });
    },
  );

  it.skipIf(!backend.available)(
    'grants atomically: 30 concurrent takes from two instances, exactly the burst passes',
    async () => {
      const clock = new ManualClock(T);
      const bucket = uniqueId('b');
      const a = backend.limiter(bucket, { ratePerSecond: 4, burst: 3 }, clock);
      const b = backend.limiter(bucket, { ratePerSecond: 4, burst: 3 }, clock);
      const verdicts = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).take(T)));
      expect(verdicts.filter((v) => v.granted)).toHaveLength(3);
    },
  );

  it.skipIf(!backend.available)(
    'a pause from one instance holds the other, which then resumes gently',
    async () => {
      const clock = new ManualClock(T);
      const bucket = uniqueId('b');
      const a = backend.limiter(bucket, { ratePerSecond: 4, burst: 3 }, clock);
      const b = backend.limiter(bucket, { ratePerSecond: 4, burst: 3 }, clock);
      await a.storePause(T, 2_000);
      await a.storePause(T + 100, 500); // never shortens the longer pause
      expect(await b.take(T + 1_000)).toEqual({ granted: false, waitMs: 1_000 });
      expect(await b.take(T + 2_000)).toEqual({ granted: true });
      expect(await a.take(T + 2_000)).toEqual({ granted: false, waitMs: 250 });
    },
  );

  it.skipIf(!backend.available)(
    'acquire() serves queued callers of both instances within one budget',
    async () => {
      const clock = new ManualClock(T);
      const bucket = uniqueId('b');
      const a = backend.limiter(bucket, { ratePerSecond: 4, burst: 1 }, clock);
      const b = backend.limiter(bucket, { ratePerSecond: 4, burst: 1 }, clock);
      let granted = 0;
      const all = Promise.all(
        Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).acquire().then(() => granted++)),
      );
      // Move time only when both pumps sleep (no store call in flight), 250 ms at a time.
      const counts: number[] = [];
      for (let step = 0; step < 8; step++) {
        const pumps = () => (a.waiting > 0 ? 1 : 0) + (b.waiting > 0 ? 1 : 0);
        for (let spin = 0; spin < 2_000 && clock.pendingSleepers < pumps(); spin++) {
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
        counts.push(granted);
        await clock.advance(250);
      }
      await all;
      // One grant per 250 ms, whichever instance asks.
      expect(counts).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => Math.min(n, 8)));
      await a.close();
      await b.close();
    },
  );

  it.skipIf(!backend.available)('keys the budget by the bucket name only', async () => {
    const clock = new ManualClock(T);
    const bucket = uniqueId('fingerprint');
    await backend.limiter(bucket, { ratePerSecond: 4, burst: 1 }, clock).take(T);
    expect(await backend.storedNames()).toContain(backend.name === 'Redis' ? `${prefix}${bucket}` : bucket);
  });
});
