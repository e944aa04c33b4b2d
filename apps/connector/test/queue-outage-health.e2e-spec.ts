import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { HealthDetailsDto as HealthDetails } from '../src/platform/health/health.dto.js';
import { call } from './support/admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';
import { testShop } from './support/test-shop.js';

const backend = inject('queueBackend');

// Redis goes away under a running connector (a TCP proxy in front of the tests' Redis is cut):
// every answer of /health agrees with itself (readiness's queue check and the queue's entry in
// `dependencies` say the same, in the same body), and the queue client's connection errors come
// out of the connector's JSON log, each a JSON line, never the raw `[ioredis] Unhandled error
// event` the client prints when nobody listens; then Redis comes back and /health says so.
describe.runIf(backend.kind === 'redis')('Redis unreachable under a running connector', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  let proxy: TcpProxy;
  const logged: string[] = [];
  const raw: string[] = [];
  const restore: Array<() => void> = [];
  const shop = testShop();
  const health = async () => (await call<HealthDetails>(harness.url, 'GET', '/health')).body;

  beforeAll(async () => {
    // Whatever the process prints around the connector's logger (console, stderr) is kept.
    for (const name of ['error', 'warn', 'log'] as const) {
      const original = console[name];
      console[name] = (...args: unknown[]) => {
        raw.push(args.map(String).join(' '));
      };
      restore.push(() => {
        console[name] = original;
      });
    }
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      raw.push(String(chunk));
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stderr.write;
    restore.push(() => {
      process.stderr.write = write;
    });
    sandboxes = await startSandboxes();
    await sandboxes.addShop(shop);
    const redis = new URL(backend.url);
    proxy = await startTcpProxy(redis.hostname, Number(redis.port || 6379));
    harness = await startConnector({
      shops: [shop],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: (await sandboxes.account()).apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      env: {
        REDIS_URL: `redis://127.0.0.1:${proxy.port}${redis.pathname}`,
        CONNECTOR_QUEUE_CHECK_INTERVAL_MS: '200',
      },
      logger: ['log', 'warn', 'error'],
      logDestination: { write: (line: string) => void logged.push(line) },
    });
  });
  afterAll(async () => {
    proxy?.restore();
    await harness?.close();
    await proxy?.close();
    await sandboxes?.close();
    for (const undo of restore.reverse()) undo();
  });

  it('answers /health with one truth about the queue, and logs the client errors as JSON lines', async () => {
    const lines = () => logged.join('').split('\n').filter(Boolean);
    const up = await health();
    expect(up.checks.queue).toBe('up');
    expect(up.dependencies.queue?.status).toBe('up');

    proxy.cut();
    const seen: HealthDetails[] = [];
    try {
      // The catalog rate limiter's Redis connection is made at its first use: one catalog call.
      await call(harness.url, 'GET', '/health');
      await eventually(async () => {
        const details = await health();
        seen.push(details);
        return details.checks.queue === 'down';
      }, 20_000);
      // Every answer while it is down agrees with itself.
      for (let i = 0; i < 3; i++) seen.push(await health());
      // The queue client's connection errors reach the log.
      await eventually(async () => lines().some((line) => /ECONNREFUSED|ECONNRESET/.test(line)), 20_000);
    } finally {
      proxy.restore();
    }
    const back = await eventually(async () => {
      const details = await health();
      return details.ready && details;
    }, 30_000);
    expect(back.checks.queue).toBe('up');
    expect(back.dependencies.queue?.status).toBe('up');
    const down = seen.filter((details) => details.checks.queue === 'down');
    expect(down.length).toBeGreaterThanOrEqual(4);
    for (const details of down) {
      expect(details.ready).toBe(false);
      expect(details.dependencies.queue?.status, JSON.stringify(details)).toBe('down');
    }

    for (const line of lines()) expect(() => JSON.parse(line), line).not.toThrow();
    const errors = lines()
      .map((line) => JSON.parse(line) as { level: string; msg?: string })
      .filter((line) => /ECONNREFUSED|ECONNRESET/.test(line.msg ?? ''));
    expect(errors.length).toBeGreaterThan(0);
    // Bounded: one line per source, then at most one per 10 seconds with a count.
    expect(errors.length).toBeLessThan(40);
    expect(raw.filter((text) => text.includes('[ioredis]'))).toEqual([]);
  });
});
