import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import {
  CatalogClient,
  type CatalogClientLogger,
  type CatalogClientMetrics,
  type CatalogClientOptions,
} from '../src/index.js';
import {
  type CatalogSandboxHarness,
  drive,
  portalFor,
  product,
  recorder,
  startCatalogSandbox,
} from './sandbox-support.js';

/** A logger whose every line throws, counting the lines it was given. */
function throwingLogger() {
  const lines: string[] = [];
  const logger: CatalogClientLogger = {
    debug(message) {
      lines.push(message);
      throw new Error(`logger broke on "${message}"`);
    },
    warn(message) {
      lines.push(message);
      throw new Error(`logger broke on "${message}"`);
    },
  };
  return { logger, lines };
}

/** Metrics hooks that all fail: half throw, half return a rejected promise (async hooks). */
function failingMetrics(): CatalogClientMetrics {
  const boom = () => {
    throw new Error('metrics broke');
  };
  const reject = async () => {
    throw new Error('async metrics broke');
  };
  return {
    call: boom,
    rateLimited: reject,
    retry: boom,
    rejected: reject,
    breakerState: boom,
    limiterWait: reject,
    createReconciled: boom,
    upload: reject,
  };
}

// Issue 11, item 2: a throwing logger or metrics hook never changes a call's outcome, and the
// breaker always learns what the half-open probe found.
describe('CatalogClient: hooks are isolated from calls', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1));
  let sandbox: CatalogSandboxHarness;
  const run = <T>(work: Promise<T>) => drive(clock, work);
  beforeAll(async () => {
    sandbox = await startCatalogSandbox({ clock });
  });
  afterAll(() => sandbox.close());

  async function setup(options: Partial<CatalogClientOptions> = {}) {
    const account = await sandbox.createAccount();
    const portal = portalFor(sandbox, account.id);
    const client = new CatalogClient({
      baseUrl: sandbox.url,
      apiKey: account.apiKey,
      clock,
      rate: { ratePerSecond: 20, burst: 5 },
      random: () => 0.5,
      ...options,
    });
    const countBySupplierSku = async (supplierSku: string) =>
      (await account.api.post('/v1/products/search', { filter: { supplierSku: { $eq: supplierSku } } })).body
        .data.pagination.total as number;
    return { account, portal, client, countBySupplierSku };
  }

  it('a create whose log lines and metrics all throw still resolves with the record, created once', async () => {
    const { logger, lines } = throwingLogger();
    const { portal, client, countBySupplierSku } = await setup({ logger, metrics: failingMetrics() });
    const plain = await run(client.createProduct(product('LOGGED')));
    expect(plain.supplierSku).toBe('LOGGED');

    // Commit then drop: the adoption is logged with warn (which throws) and still returned.
    await portal.setFaults({ commitThenDrop: { count: 1, method: 'POST', path: '/v1/products' } });
    await portal.clearRequests();
    const adopted = await run(client.createProduct(product('LOGGED-DROP')));
    expect(adopted.supplierSku).toBe('LOGGED-DROP');
    expect(lines).toContain('ambiguous catalog create: adopted the existing record');
    expect((await portal.requests()).map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/products',
      'POST /v1/products/search',
    ]);
    expect(await countBySupplierSku('LOGGED')).toBe(1);
    expect(await countBySupplierSku('LOGGED-DROP')).toBe(1);
  });

  it('the breaker closes after a probe whose log line throws, and re-opens after a failed one', async () => {
    const { logger, lines } = throwingLogger();
    const rec = recorder();
    const { portal, client } = await setup({
      logger,
      metrics: { ...failingMetrics(), breakerState: rec.metrics.breakerState },
      breaker: { failureThreshold: 2, cooldownMs: 10_000 },
      retry: { maxAttempts: 1 },
    });
    client.breaker.onStateChange(() => {
      throw new Error('listener broke');
    });
    // An async listener whose promise rejects, as a careless caller might pass one.
    const asyncListener = (async () => {
      throw new Error('async listener broke');
    }) as () => void;
    client.breaker.onStateChange(asyncListener);
    await portal.setFaults({ error500: { count: 3 } });
    for (let i = 0; i < 2; i++) await run(client.getTaxonomy().catch(() => null));
    expect(client.breaker.state).toBe('open');

    // A failed probe (the third 500) re-opens it with twice the cool-down: not stuck half-open.
    await clock.advance(10_000);
    const failed = await run(client.getTaxonomy().catch((e: unknown) => e));
    expect(failed).toMatchObject({ status: 500 });
    expect(client.breaker.snapshot).toMatchObject({ state: 'open', retryAt: clock.now() + 20_000 });

    // A healthy probe closes it although its log line throws.
    await clock.advance(20_000);
    const linesBefore = lines.length;
    const taxonomy = await run(client.getTaxonomy());
    expect(taxonomy).toBeDefined();
    expect(lines.length).toBeGreaterThan(linesBefore);
    expect(client.breaker.state).toBe('closed');
    await run(client.getTaxonomy());
    expect((await portal.requests()).map((r) => r.status)).toEqual([500, 500, 500, 200, 200]);
    expect(rec.of('breakerState').map((t) => `${t.from}->${t.to}`)).toEqual([
      'closed->open',
      'open->half-open',
      'half-open->open',
      'open->half-open',
      'half-open->closed',
    ]);
  });
});
