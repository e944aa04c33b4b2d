import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, SystemClock } from '#lib/clock';
import {
  CatalogClient,
  CatalogClientError,
  type CatalogClientOptions,
  type RateLimiter,
} from '../src/index.js';
import {
  type CatalogSandboxHarness,
  drive,
  portalFor,
  product,
  recorder,
  startCatalogSandbox,
} from './sandbox-support.js';

/** A key with characters a URL escapes, so it shows up encoded in paths too. */
const specialKey = () => `k+y/${randomBytes(10).toString('hex')}=`;

/** Every form the key can take in text: as written, and escaped as in a URL. */
const forms = (key: string) => [key, encodeURIComponent(key), encodeURI(key)];

/** Every way an error can be turned into text or data, and every own field of it. */
function renderings(error: unknown): string[] {
  const e = error as CatalogClientError;
  return [
    String(e),
    e.stack ?? '',
    JSON.stringify(e),
    JSON.stringify(e.toJSON()),
    inspect(e, { depth: 10, showHidden: true }),
    ...Object.entries(e).map(([name, value]) => `${name}=${JSON.stringify(value)}`),
    `message=${e.message} path=${e.path} method=${e.method} code=${e.code} suggestion=${e.suggestion}`,
  ];
}

function expectNoKey(errors: unknown[], key: string): void {
  for (const error of errors) {
    expect(error).toBeInstanceOf(CatalogClientError);
    for (const text of renderings(error)) for (const form of forms(key)) expect(text).not.toContain(form);
  }
}

/** A limiter whose store fails with an error that quotes the key (as a careless driver might). */
const leakyLimiter = (key: string): RateLimiter => ({
  acquire: () => {
    const error = new Error(`store refused ${key}`);
    error.name = `StoreError(${key})`;
    return Promise.reject(error);
  },
  pause: async () => undefined,
  close: async () => undefined,
});

// Issue 11, item 3: the API key is scrubbed from every field of every error (messages, path,
// details, suggestion; time-out, network, circuit_open, limiter, outcome-unknown errors) and from
// what toJSON and util.inspect show. The key is used as a skuId or supplierSku, so it is in paths.
describe('CatalogClient: the API key is scrubbed from every error', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1));
  let sandbox: CatalogSandboxHarness;
  beforeAll(async () => {
    sandbox = await startCatalogSandbox({ clock });
  });
  afterAll(() => sandbox.close());

  it('in answers, retries, circuit_open, network, limiter, closed and outcome-unknown errors', async () => {
    const key = specialKey();
    const account = await sandbox.createAccount({ apiKeys: [{ key, permissions: ['*'] }] });
    const portal = portalFor(sandbox, account.id);
    const rec = recorder();
    const options = (extra: Partial<CatalogClientOptions> = {}) =>
      new CatalogClient({
        baseUrl: sandbox.url,
        apiKey: key,
        clock,
        metrics: rec.metrics,
        logger: rec.logger,
        random: () => 0.5,
        ...extra,
      });
    const client = options({ breaker: { failureThreshold: 100 }, retry: { maxAttempts: 2 } });
    const errors: unknown[] = [];
    const collect = async (work: Promise<unknown>) =>
      errors.push(
        await drive(
          clock,
          work.then(
            () => new Error('resolved'),
            (e: unknown) => e,
          ),
        ),
      );

    await collect(client.getProduct(key)); // 404, the key in the path
    await portal.setFaults({ error500: {} });
    await collect(client.deleteProduct(key)); // 500 twice: write_outcome_unknown
    await collect(client.updateVariant(key, product(key))); // PATCH 500 twice
    await collect(client.createProduct(product(key), { onAmbiguous: 'throw' })); // supplierSku = key
    await collect(client.createProduct(product(key))); // look-up fails too
    await portal.clearFaults();

    const breaking = options({
      breaker: { failureThreshold: 1, cooldownMs: 60_000 },
      retry: { maxAttempts: 1 },
    });
    await portal.setFaults({ error500: { count: 1 } });
    await collect(breaking.getVariant(key)); // opens the breaker
    await collect(breaking.getVariant(key)); // circuit_open, the key in the path
    await collect(breaking.uploadImage({ fileName: `${key}.png`, data: Buffer.from('x') })); // circuit_open

    await collect(options({ baseUrl: 'http://127.0.0.1:9', retry: { maxAttempts: 1 } }).getProduct(key));
    await collect(options({ limiter: leakyLimiter(key) }).getProduct(key)); // limiter_unavailable
    const closed = options();
    await closed.close();
    await collect(closed.getProduct(key)); // client_closed

    expect(errors.map((e) => (e as CatalogClientError).code)).toEqual([
      'product_not_found',
      'write_outcome_unknown',
      'write_outcome_unknown',
      'create_outcome_unknown',
      'create_outcome_unknown',
      'internal_error',
      'circuit_open',
      'circuit_open',
      'network_error',
      'limiter_unavailable',
      'client_closed',
    ]);
    expectNoKey(errors, key);
    // Scrubbed, not dropped: the path keeps its shape.
    expect(errors.map((e) => (e as CatalogClientError).path)).toContain('/v1/products/[redacted]');
    expect((errors[3] as CatalogClientError).details).toMatchObject({ supplierSku: '[redacted]' });
    // Nor in anything the hooks and the logger received.
    expect(rec.events.length).toBeGreaterThan(10);
    for (const form of forms(key)) expect(JSON.stringify(rec.events)).not.toContain(form);
  });

  it('in time-out errors and write_outcome_unknown after a time-out (real clock)', async () => {
    const real = await startCatalogSandbox();
    try {
      const key = specialKey();
      const account = await real.createAccount({ apiKeys: [{ key, permissions: ['*'] }] });
      await portalFor(real, account.id).setFaults({ latency: { ms: 300 } });
      const client = new CatalogClient({
        baseUrl: real.url,
        apiKey: key,
        clock: new SystemClock(),
        timeouts: { readMs: 50, writeMs: 50 },
        retry: { maxAttempts: 1 },
      });
      const errors = await Promise.all([
        client.getProduct(key).catch((e: unknown) => e),
        client.updateProductBySkuId(key, product(key)).catch((e: unknown) => e),
      ]);
      expect(errors.map((e) => (e as CatalogClientError).code)).toEqual(['timeout', 'write_outcome_unknown']);
      expectNoKey(errors, key);
    } finally {
      await real.close();
    }
  });
});
