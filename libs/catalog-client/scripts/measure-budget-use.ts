// Measures how much of its rate budget the catalog client really uses, per limiter backend
// (in-process, Redis, PostgreSQL), rate and burst: a saturated client (every call queued at once)
// against a local HTTP server that answers like the catalog and notes when each call arrived.
// Why: a late grant is lost time with burst 1 (GCRA restarts from "now"), and the loss grows with
// the rate and the store's round trip; the README's default burst is chosen from these figures.
//
// Run from the repository root (Redis and PostgreSQL rows need REDIS_URL / DATABASE_URL):
//   node --conditions=source --import ./libs/catalog-client/test/fixtures/ts-resolve-hooks.mjs \
//     libs/catalog-client/scripts/measure-budget-use.ts [--rates=4,10,25,50] [--bursts=1,2] [--seconds=3]
// Budget use = (calls - burst) / (rate x (last arrival - first arrival)): 100% is the budget
// exactly. Max/1 s is the most calls that arrived in any one-second window (at most rate + burst).
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import pg from 'pg';
import { CatalogClient } from '../src/catalog-client.js';
import { DEFAULT_RATE_BUDGET, type RateBudget } from '../src/limiter/gcra.js';
import { InProcessRateLimiter } from '../src/limiter/in-process-rate-limiter.js';
import { PostgresRateLimiter } from '../src/limiter/postgres-rate-limiter.js';
import type { RateLimiter } from '../src/limiter/rate-limiter.js';
import { RedisRateLimiter } from '../src/limiter/redis-rate-limiter.js';

interface Backend {
  name: string;
  limiter(bucket: string, budget: RateBudget): RateLimiter;
}

const args = new Map(
  process.argv.slice(2).map((arg) => {
    const [name, value] = arg.replace(/^--/, '').split('=');
    return [name, value ?? ''] as const;
  }),
);
const list = (name: string, fallback: number[]) =>
  args.has(name) ? (args.get(name) ?? '').split(',').map(Number) : fallback;
const rates = list('rates', [4, 10, 25, 50]);
const bursts = list('bursts', [1, DEFAULT_RATE_BUDGET.burst]).filter((b, i, all) => all.indexOf(b) === i);
const seconds = Number(args.get('seconds') ?? 3);

const arrivals: number[] = [];
const server: Server = createServer((req, res) => {
  arrivals.push(performance.now());
  req.resume();
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify({ errorCode: 0, data: { categories: [] } }));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const closers: Array<() => Promise<unknown>> = [];
const runId = randomBytes(4).toString('hex');
const schema = `budget_measure_${runId}`;
const backends: Backend[] = [
  { name: 'in-process', limiter: (_bucket, budget) => new InProcessRateLimiter(budget) },
];
if (process.env.REDIS_URL) {
  const redis = new Redis(process.env.REDIS_URL);
  closers.push(() => redis.quit());
  const prefix = `catalog-client:budget-measure:${runId}:`;
  closers.push(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  });
  backends.push({
    name: 'Redis',
    limiter: (bucket, budget) => new RedisRateLimiter({ redis, bucket, prefix, ...budget }),
  });
}
if (process.env.DATABASE_URL) {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
  closers.push(() => pool.end());
  closers.push(() => pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
  backends.push({
    name: 'PostgreSQL',
    limiter: (bucket, budget) => new PostgresRateLimiter({ pool, bucket, schema, ...budget }),
  });
}

/** One saturated run: every call queued at once; the arrivals at the server judge the budget. */
async function measure(backend: Backend, budget: RateBudget) {
  const calls = Math.max(12, Math.round(budget.ratePerSecond * seconds) + budget.burst);
  const client = new CatalogClient({
    baseUrl,
    apiKey: `measure-${randomBytes(8).toString('hex')}`,
    limiter: ({ fingerprint }) => backend.limiter(fingerprint, budget),
  });
  arrivals.length = 0;
  await Promise.all(Array.from({ length: calls }, () => client.getTaxonomy()));
  await client.close();
  const times = [...arrivals].sort((a, b) => a - b);
  const span = ((times.at(-1) ?? 0) - (times[0] ?? 0)) / 1000;
  return {
    calls,
    use: (calls - budget.burst) / (budget.ratePerSecond * span),
    maxPerSecond: maxInWindow(times, 1000),
  };
}

function maxInWindow(sorted: number[], windowMs: number): number {
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while ((sorted[end] as number) - (sorted[start] as number) >= windowMs) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

console.log(`| Backend | Rate/s | Burst | Calls | Budget use | Max/1 s |`);
console.log(`|---|---|---|---|---|---|`);
try {
  for (const backend of backends) {
    for (const ratePerSecond of rates) {
      for (const burst of bursts) {
        const { calls, use, maxPerSecond } = await measure(backend, { ratePerSecond, burst });
        const pct = `${(use * 100).toFixed(1)}%`;
        console.log(
          `| ${backend.name} | ${ratePerSecond} | ${burst} | ${calls} | ${pct} | ${maxPerSecond} |`,
        );
      }
    }
  }
} finally {
  for (const close of closers.reverse()) await close();
  server.close();
}
