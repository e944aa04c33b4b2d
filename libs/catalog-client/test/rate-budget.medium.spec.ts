import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { type CatalogSandboxHarness, startCatalogSandbox } from '#testing/catalog-sandbox';
import { CatalogClient, DEFAULT_RATE_BUDGET } from '../src/index.js';
import { drive, maxInWindow, portalFor, recorder } from './sandbox-support.js';

// The rate budget, judged by the sandbox: its request log (times on the shared ManualClock) and
// its own rate limit, turned on at the spec's 4 per second.
describe('CatalogClient: rate budget', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1));
  let sandbox: CatalogSandboxHarness;

  beforeAll(async () => {
    sandbox = await startCatalogSandbox({
      clock,
      env: {
        CATALOG_SANDBOX_RATE_LIMIT: 'true',
        CATALOG_SANDBOX_RATE_PER_SECOND: '4',
        CATALOG_SANDBOX_RATE_BURST: '4',
      },
    });
  });
  afterAll(() => sandbox.close());

  async function setup(options: { rate?: { ratePerSecond: number; burst: number } } = {}) {
    const account = await sandbox.createAccount();
    const portal = portalFor(sandbox, account.id);
    const rec = recorder();
    const client = new CatalogClient({
      baseUrl: sandbox.url,
      apiKey: account.apiKey,
      clock,
      rate: options.rate,
      metrics: rec.metrics,
      random: () => 0.5,
    });
    return { account, portal, rec, client };
  }

  it('holds 4 requests per second under concurrency (20 concurrent calls, no 429)', async () => {
    const { portal, client } = await setup();
    const calls = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0 ? client.getTaxonomy() : client.searchAttributes({ filter: { key: { $eq: 'size' } } }),
    );
    await drive(clock, Promise.all(calls));
    const log = await portal.requests();
    expect(log).toHaveLength(20);
    expect(log.every((r) => r.status === 200)).toBe(true);
    const times = log.map((r) => r.time);
    // Default budget: 4 per second, burst 2. No window of 1 s ever holds more than rate + burst
    // (arrival times are a little later than grants); the 20 calls take (20 - burst) intervals.
    const { ratePerSecond, burst } = DEFAULT_RATE_BUDGET;
    expect(maxInWindow(times, 1_000)).toBeLessThanOrEqual(ratePerSecond + burst);
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThanOrEqual((20 - burst) * 250 - 100);
    await client.close();
  });

  it('takes a configured budget', async () => {
    const { portal, client } = await setup({ rate: { ratePerSecond: 2, burst: 2 } });
    await drive(clock, Promise.all(Array.from({ length: 8 }, () => client.getTaxonomy())));
    const times = (await portal.requests()).map((r) => r.time);
    expect(times).toHaveLength(8);
    expect(maxInWindow(times, 1_000)).toBeLessThanOrEqual(4);
    expect(maxInWindow(times, 3_000)).toBeLessThanOrEqual(8);
    await client.close();
  });

  it('lets interactive work pass queued bulk work', async () => {
    const { portal, client } = await setup({ rate: { ratePerSecond: 4, burst: 1 } });
    const bulk = Array.from({ length: 6 }, () => client.getTaxonomy({ priority: 'bulk' }));
    await new Promise((resolve) => setImmediate(resolve)); // the first bulk call is granted at once
    // The others wait for budget; the interactive call, queued after them, goes first.
    const interactive = client.searchAttributes(
      { filter: { key: { $eq: 'size' } } },
      { priority: 'interactive' },
    );
    await drive(clock, Promise.all([...bulk, interactive]));
    const order = (await portal.requests()).sort((a, b) => a.seq - b.seq).map((r) => r.path);
    expect(order.indexOf('/v1/attributes/search')).toBe(1);
    await client.close();
  });

  it('absorbs a 429 burst: the whole limiter pauses at least Retry-After, then every call succeeds', async () => {
    const { portal, rec, client } = await setup();
    await portal.setFaults({ burst429: { count: 3, retryAfterSeconds: 3 } });
    const results = await drive(clock, Promise.all(Array.from({ length: 6 }, () => client.getTaxonomy())));
    expect(results).toHaveLength(6);
    const log = (await portal.requests()).sort((a, b) => a.seq - b.seq);
    const limited = log.filter((r) => r.status === 429);
    const ok = log.filter((r) => r.status === 200);
    expect(limited).toHaveLength(3);
    expect(ok).toHaveLength(6);
    // Nothing reached the API within 3 s (Retry-After > the 2 s minimum) of the first 429.
    const first429 = limited[0]?.time ?? 0;
    expect(log.filter((r) => r.time > first429 && r.time < first429 + 3_000)).toEqual([]);
    expect(rec.of('rateLimited')).toHaveLength(3);
    expect(rec.of<{ pauseMs: number }>('rateLimited').every((e) => e.pauseMs >= 3_000)).toBe(true);
    await client.close();
  });

  it('waits at least 2 s after a 429 even when Retry-After says less', async () => {
    const { portal, client } = await setup();
    await portal.setFaults({ burst429: { count: 1, retryAfterSeconds: 0 } });
    await drive(clock, client.getTaxonomy());
    const [limited, ok] = (await portal.requests()).sort((a, b) => a.seq - b.seq);
    expect(limited?.status).toBe(429);
    expect(ok?.status).toBe(200);
    expect((ok?.time ?? 0) - (limited?.time ?? 0)).toBeGreaterThanOrEqual(2_000);
    await client.close();
  });

  it('gives up after the configured number of 429s with a retryable error', async () => {
    const account = await sandbox.createAccount();
    const portal = portalFor(sandbox, account.id);
    const client = new CatalogClient({
      baseUrl: sandbox.url,
      apiKey: account.apiKey,
      clock,
      retry: { maxRateLimitRetries: 2 },
    });
    await portal.setFaults({ burst429: { retryAfterSeconds: 2 } });
    const error = await drive(
      clock,
      client.getTaxonomy().catch((e: unknown) => e),
    );
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded', retryable: true, attempts: 3 });
    expect(await portal.requests()).toHaveLength(3);
    await client.close();
  });
});
