import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductFilter } from '#lib/catalog-contract';
import { ManualClock, SystemClock } from '#lib/clock';
import { type CatalogSandboxHarness, startCatalogSandbox } from '#testing/catalog-sandbox';
import { CatalogClient, CatalogClientError } from '../src/index.js';
import { drive, portalFor, product, recorder } from './sandbox-support.js';

/** Every way an error can be turned into text or data. */
function renderings(error: unknown): string[] {
  return [
    String(error),
    (error as Error).stack ?? '',
    JSON.stringify(error),
    inspect(error, { depth: 10, showHidden: true }),
  ];
}

describe('CatalogClient: the API key never leaks', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1));
  let sandbox: CatalogSandboxHarness;
  beforeAll(async () => {
    sandbox = await startCatalogSandbox({ clock });
  });
  afterAll(() => sandbox.close());

  it('not in errors of any kind, nor in anything given to the logger and metrics hooks', async () => {
    const account = await sandbox.createAccount();
    const portal = portalFor(sandbox, account.id);
    const rec = recorder();
    const options = {
      apiKey: account.apiKey,
      clock,
      metrics: rec.metrics,
      logger: rec.logger,
      random: () => 0.5,
    };
    const client = new CatalogClient({
      ...options,
      baseUrl: sandbox.url,
      retry: { maxAttempts: 2, maxRateLimitRetries: 1 },
      breaker: { failureThreshold: 100 },
    });
    const errors: unknown[] = [];
    const collect = async (work: Promise<unknown>) =>
      errors.push(
        await drive(
          clock,
          work.then(
            () => null,
            (e: unknown) => e,
          ),
        ),
      );

    await collect(client.getProduct('SK00000001')); // 404
    // A filter field named after the key: the catalog's message quotes it back.
    await collect(client.searchProducts({ filter: { [account.apiKey]: { $eq: 'x' } } as ProductFilter }));
    await portal.setFaults({ burst429: { retryAfterSeconds: 2 } });
    await collect(client.getTaxonomy()); // 429 exhausted
    await portal.setFaults({ error500: {} });
    await collect(client.getTaxonomy()); // 500 after retries
    await collect(client.createProduct(product('LEAK'))); // 500 then look-up 500: outcome unknown
    await portal.clearFaults();
    await portal.setKeysActive(false);
    await collect(client.getTaxonomy()); // 401
    await collect(client.getTaxonomy()); // circuit open
    const unreachable = new CatalogClient({
      ...options,
      baseUrl: 'http://127.0.0.1:9',
      retry: { maxAttempts: 1 },
    });
    await collect(unreachable.getTaxonomy()); // connection refused
    await collect(client.uploadImage({ fileName: 'x.png', data: Buffer.from('x') })); // breaker still open

    expect(errors.map((e) => (e as CatalogClientError).code)).toEqual([
      'product_not_found',
      expect.any(String),
      'rate_limit_exceeded',
      'internal_error',
      'create_outcome_unknown',
      'unauthorized',
      'circuit_open',
      'network_error',
      'circuit_open',
    ]);
    expect(errors.every((e) => e instanceof CatalogClientError)).toBe(true);
    for (const error of errors) {
      for (const text of renderings(error)) expect(text).not.toContain(account.apiKey);
    }
    expect(String(errors[1])).toContain('[redacted]');
    expect(rec.events.length).toBeGreaterThan(20);
    expect(JSON.stringify(rec.events)).not.toContain(account.apiKey);
    expect(JSON.stringify(client)).not.toContain(account.apiKey);
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(account.apiKey);
  });

  it('not in time-out errors (real clock)', async () => {
    const real = await startCatalogSandbox();
    try {
      const account = await real.createAccount();
      await portalFor(real, account.id).setFaults({ latency: { ms: 300 } });
      const client = new CatalogClient({
        baseUrl: real.url,
        apiKey: account.apiKey,
        clock: new SystemClock(),
        timeouts: { readMs: 50 },
        retry: { maxAttempts: 1 },
      });
      const error = await client.getTaxonomy().catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'timeout' });
      for (const text of renderings(error)) expect(text).not.toContain(account.apiKey);
    } finally {
      await real.close();
    }
  });
});

describe('CatalogClient: metrics hooks', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1));
  let sandbox: CatalogSandboxHarness;
  beforeAll(async () => {
    sandbox = await startCatalogSandbox({ clock });
  });
  afterAll(() => sandbox.close());

  it('report calls by endpoint and outcome with latency, 429s, retries, limiter waits and the breaker', async () => {
    const account = await sandbox.createAccount();
    const portal = portalFor(sandbox, account.id);
    const rec = recorder();
    const client = new CatalogClient({
      baseUrl: sandbox.url,
      apiKey: account.apiKey,
      clock,
      metrics: rec.metrics,
      breaker: { failureThreshold: 2 },
      random: () => 0.5,
    });
    await portal.setFaults({ burst429: { count: 1, retryAfterSeconds: 2 }, seed: 1 });
    await drive(clock, client.getTaxonomy());
    await portal.setFaults({ error500: { count: 1 } });
    await drive(
      clock,
      client.getProduct('SK00000001').catch(() => null),
    );
    await portal.setFaults({ error500: {} });
    await drive(
      clock,
      client.getTaxonomy().catch(() => null),
    );

    const calls = rec.of<{ endpoint: string; outcome: string; status: number | null; durationMs: number }>(
      'call',
    );
    expect(calls.map((c) => `${c.endpoint} ${c.outcome}`)).toEqual([
      'GET /v1/taxonomies rate_limited',
      'GET /v1/taxonomies success',
      'GET /v1/products/{skuId} server_error',
      'GET /v1/products/{skuId} client_error',
      'GET /v1/taxonomies server_error',
      'GET /v1/taxonomies server_error', // the second consecutive 5xx opens the breaker: no third
    ]);
    expect(calls.every((c) => c.durationMs >= 0)).toBe(true);
    expect(rec.of('rateLimited')).toEqual([{ endpoint: 'GET /v1/taxonomies', pauseMs: 2_500 }]);
    expect(rec.of('retry').map((r) => r.reason)).toEqual(['rate_limited', 'server_error', 'server_error']);
    expect(rec.of('limiterWait')).toHaveLength(6);
    expect(rec.of('breakerState')).toEqual([
      { from: 'closed', to: 'open', reason: 'unavailable', shared: false },
    ]);
  });
});
