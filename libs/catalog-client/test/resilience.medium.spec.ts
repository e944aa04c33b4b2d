import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, SystemClock } from '#lib/clock';
import { type CatalogSandboxHarness, startCatalogSandbox } from '#testing/catalog-sandbox';
import { CatalogClient, type CatalogClientOptions } from '../src/index.js';
import { drive, portalFor, product, recorder } from './sandbox-support.js';

describe('CatalogClient: retries, creates and the breaker (manual clock)', () => {
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
    const rec = recorder();
    const client = new CatalogClient({
      baseUrl: sandbox.url,
      apiKey: account.apiKey,
      clock,
      rate: { ratePerSecond: 20, burst: 5 },
      metrics: rec.metrics,
      random: () => 0.5,
      ...options,
    });
    const countBySupplierSku = async (supplierSku: string) =>
      (await account.api.post('/v1/products/search', { filter: { supplierSku: { $eq: supplierSku } } })).body
        .data.pagination.total as number;
    return { account, portal, rec, client, countBySupplierSku };
  }

  it('retries 5xx on reads and PATCHes with back-off, then succeeds', async () => {
    const { portal, rec, client } = await setup();
    await portal.setFaults({ error500: { count: 2, path: '/v1/taxonomies' } });
    await run(client.getTaxonomy());
    expect((await portal.requests()).map((r) => r.status)).toEqual([500, 500, 200]);
    expect(rec.of('retry').map((e) => e.reason)).toEqual(['server_error', 'server_error']);

    await run(client.createProduct(product('P-PATCH')));
    await portal.setFaults({ error500: { count: 1, method: 'PATCH' } });
    await portal.clearRequests();
    await run(
      client.updateProduct({
        product: { supplierSku: 'P-PATCH', attributes: [{ key: 'price', value: '1' }] },
      }),
    );
    expect((await portal.requests()).map((r) => `${r.method} ${r.status}`)).toEqual([
      'PATCH 500',
      'PATCH 200',
    ]);
  });

  it('retries a dropped connection on a GET, and gives up after maxAttempts', async () => {
    const { portal, client } = await setup({ retry: { maxAttempts: 3 } });
    await portal.setFaults({ commitThenDrop: { count: 1, method: 'GET' } });
    await run(client.getTaxonomy());
    expect(await portal.requests()).toHaveLength(2);
    await portal.setFaults({ error500: { path: '/v1/taxonomies' } });
    await portal.clearRequests();
    const error = await run(client.getTaxonomy().catch((e: unknown) => e));
    expect(error).toMatchObject({ status: 500, code: 'internal_error', retryable: true, attempts: 3 });
    expect(await portal.requests()).toHaveLength(3);
  });

  for (const kind of ['product', 'variant'] as const) {
    it(`commit then drop on a ${kind} create leaves exactly one record, adopted by the client`, async () => {
      const { account, portal, rec, client, countBySupplierSku } = await setup();
      await client.createProduct(product('PARENT')).catch(() => undefined);
      await run(Promise.resolve());
      if (kind === 'variant') expect(await countBySupplierSku('PARENT')).toBe(1);
      const path = kind === 'product' ? '/v1/products' : '/v1/variants';
      await portal.setFaults({ commitThenDrop: { count: 1, method: 'POST', path } });
      await portal.clearRequests();
      const record =
        kind === 'product'
          ? await run(client.createProduct(product('DROPPED')))
          : await run(
              client.createVariant({
                parentSupplierSku: 'PARENT',
                supplierSku: 'DROPPED',
                attributes: [{ key: 'size', value: 'M' }],
              }),
            );
      expect(record.supplierSku).toBe('DROPPED');
      expect((await portal.faults()).injected.commitThenDrop).toBe(1);
      // One POST (dropped after its commit), one look-up, no second POST.
      expect((await portal.requests()).map((r) => `${r.method} ${r.path}`)).toEqual([
        `POST ${path}`,
        'POST /v1/products/search',
      ]);
      expect(await countBySupplierSku('DROPPED')).toBe(1);
      const fetched = await account.api.get(`${path}/${record.skuId}`);
      expect(fetched.status).toBe(200);
      expect(rec.of('createReconciled')).toEqual([{ endpoint: `POST ${path}`, result: 'adopted' }]);
      if (kind === 'variant') {
        expect(record).toMatchObject({
          parentSupplierSku: 'PARENT',
          attributes: [expect.objectContaining({ key: 'size', value: 'M' })],
        });
      }
    });
  }

  it('creates again only when the look-up finds nothing (a 5xx before the commit)', async () => {
    const { portal, rec, client, countBySupplierSku } = await setup();
    await portal.setFaults({ error500: { count: 1, method: 'POST', path: '/v1/products' } });
    const record = await run(client.createProduct(product('NOT-COMMITTED')));
    expect(record.supplierSku).toBe('NOT-COMMITTED');
    expect((await portal.requests()).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /v1/products 500',
      'POST /v1/products/search 200',
      'POST /v1/products 200',
    ]);
    expect(await countBySupplierSku('NOT-COMMITTED')).toBe(1);
    expect(rec.of('createReconciled')).toEqual([{ endpoint: 'POST /v1/products', result: 'created_again' }]);
  });

  it('never repeats a create refused with a 4xx', async () => {
    const { portal, client } = await setup();
    const error = await run(
      client.createProduct({ product: { supplierSku: 'X', attributes: [] } }).catch((e: unknown) => e),
    );
    expect(error).toMatchObject({ status: 400, retryable: false });
    expect(await portal.requests()).toHaveLength(1);
  });

  it('looks first when asked, and adopts without a POST', async () => {
    const { portal, client } = await setup();
    const first = await run(client.createProduct(product('KNOWN')));
    await portal.clearRequests();
    const again = await run(client.createProduct(product('KNOWN'), { lookupFirst: true }));
    expect(again.skuId).toBe(first.skuId);
    expect((await portal.requests()).map((r) => r.path)).toEqual(['/v1/products/search']);
  });

  it('counts a DELETE answered 404 after a dropped first attempt as done', async () => {
    const { portal, client, account } = await setup();
    const record = await run(client.createProduct(product('TO-DELETE')));
    await portal.setFaults({ commitThenDrop: { count: 1, method: 'DELETE' } });
    await portal.clearRequests();
    const outcome = await run(client.deleteProduct(record.skuId));
    expect(outcome).toEqual({ skuId: record.skuId, status: 'deleted', confirmedBy: 'not_found_after_retry' });
    expect((await portal.requests()).map((r) => r.status)).toEqual([200, 404]);
    expect((await account.api.get(`/v1/products/${record.skuId}`)).status).toBe(404);
  });

  it('a revoked key opens the breaker: calls fail fast, one probe after the cool-down', async () => {
    const { portal, rec, client } = await setup({ breaker: { authCooldownMs: 60_000 } });
    // The sandbox logs authenticated calls only, so HTTP attempts are counted from the metrics hook.
    const sent = () => rec.of('call').length;
    await portal.setKeysActive(false);
    const refused = await run(client.getTaxonomy().catch((e: unknown) => e));
    expect(refused).toMatchObject({ status: 401, code: 'unauthorized', retryable: false });
    expect(client.breaker.snapshot).toMatchObject({ state: 'open', reason: 'auth' });
    const fast = await run(
      Promise.all(Array.from({ length: 5 }, () => client.getTaxonomy().catch((e: unknown) => e))),
    );
    expect(fast.every((e) => (e as { code: string }).code === 'circuit_open')).toBe(true);
    expect(fast[0]).toMatchObject({ retryable: false, details: { reason: 'auth' } });
    expect(sent()).toBe(1);

    // After the cool-down: one probe among concurrent calls; it fails, the wait doubles.
    await clock.advance(60_000);
    const probing = await run(
      Promise.all(Array.from({ length: 4 }, () => client.getTaxonomy().catch((e: unknown) => e))),
    );
    expect(probing.filter((e) => (e as { status: number }).status === 401)).toHaveLength(1);
    expect(sent()).toBe(2);
    expect(client.breaker.snapshot.retryAt).toBe(clock.now() + 120_000);

    // The key comes back: the next probe closes the breaker.
    await portal.setKeysActive(true);
    await clock.advance(120_000);
    await run(client.getTaxonomy());
    expect(client.breaker.state).toBe('closed');
    expect(sent()).toBe(3);
    expect(await portal.requests()).toHaveLength(1); // the one authenticated call
    expect(rec.of('breakerState').map((t) => `${t.from}->${t.to}`)).toEqual([
      'closed->open',
      'open->half-open',
      'half-open->open',
      'open->half-open',
      'half-open->closed',
    ]);
    expect(rec.of('rejected').length).toBe(8);
  });

  it('a run of 5xx opens the breaker and stops the retries', async () => {
    const { portal, client } = await setup({ breaker: { failureThreshold: 5 }, retry: { maxAttempts: 4 } });
    await portal.setFaults({ error500: { path: '/v1/taxonomies' } });
    const first = await run(client.getTaxonomy().catch((e: unknown) => e));
    expect(first).toMatchObject({ status: 500, attempts: 4 });
    const second = await run(client.getTaxonomy().catch((e: unknown) => e));
    expect(second).toMatchObject({ status: 500, attempts: 1 });
    expect(client.breaker.snapshot).toMatchObject({ state: 'open', reason: 'unavailable' });
    const third = await run(client.getTaxonomy().catch((e: unknown) => e));
    expect(third).toMatchObject({ code: 'circuit_open' });
    expect(await portal.requests()).toHaveLength(5);
  });
});

describe('CatalogClient: time-outs (real clock, short configured time-outs)', () => {
  let sandbox: CatalogSandboxHarness;
  beforeAll(async () => {
    sandbox = await startCatalogSandbox();
  });
  afterAll(() => sandbox.close());

  async function setup(options: Partial<CatalogClientOptions>) {
    const account = await sandbox.createAccount();
    const client = new CatalogClient({
      baseUrl: sandbox.url,
      apiKey: account.apiKey,
      clock: new SystemClock(),
      rate: { ratePerSecond: 100, burst: 10 },
      retry: { baseDelayMs: 5, timeoutSettleMs: 600 },
      ...options,
    });
    return { account, portal: portalFor(sandbox, account.id), client };
  }

  it('applies the read time-out to reads and searches, and retries them', async () => {
    const { portal, client } = await setup({
      timeouts: { readMs: 100, writeMs: 5_000 },
      retry: { maxAttempts: 2, baseDelayMs: 5 },
    });
    await portal.setFaults({ latency: { ms: 400 } });
    const error = await client.searchAttributes({}).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'timeout',
      status: null,
      retryable: true,
      attempts: 2,
      details: { timeoutMs: 100 },
    });
    // The write time-out is separate: a PATCH waits.
    await portal.clearFaults();
    await client.createProduct(product('SLOW'));
    await portal.setFaults({ latency: { ms: 400 } });
    const patched = await client.updateProduct({
      product: { supplierSku: 'SLOW', attributes: [{ key: 'price', value: '2' }] },
    });
    expect(patched.supplierSku).toBe('SLOW');
  });

  it('a create that times out but lands is adopted, not duplicated', async () => {
    const { account, portal, client } = await setup({ timeouts: { readMs: 5_000, writeMs: 100 } });
    await portal.setFaults({ latency: { ms: 300, count: 1, method: 'POST', path: '/v1/products' } });
    const record = await client.createProduct(product('TIMED-OUT'));
    const search = await account.api.post('/v1/products/search', {
      filter: { supplierSku: { $eq: 'TIMED-OUT' } },
    });
    expect(search.body.data.products.map((p: { skuId: string }) => p.skuId)).toEqual([record.skuId]);
    expect((await portal.requests({ method: 'POST', path: '/v1/products' })).length).toBe(1);
  });
});
