import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductRecord } from '#lib/catalog-contract';
import { SystemClock } from '#lib/clock';
import { CatalogClient, type CatalogClientError, type CatalogClientOptions } from '../src/index.js';
import { type CatalogSandboxHarness, portalFor, product, startCatalogSandbox } from './sandbox-support.js';

/** Polls (real time, up to 5 s) until `check` holds for what `read` returns; returns it. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    const value = await read();
    if (check(value) || i >= 100) return value;
    await sleep(50);
  }
}

const price = (record: ProductRecord | undefined) => record?.attributes.find((a) => a.key === 'price')?.value;

// Issue 11, items 5 and 6, against the sandbox's latency fault (slower than the client's
// time-outs), counted in its request log. Real clock: time-outs are wall-clock time; the latency
// (1.5 s) is far longer than time-out plus settle wait (0.3 s), so the order of events is certain.
describe('CatalogClient: writes whose outcome is unknown say so', () => {
  let sandbox: CatalogSandboxHarness;
  beforeAll(async () => {
    sandbox = await startCatalogSandbox();
  });
  afterAll(() => sandbox.close());

  async function setup(options: Partial<CatalogClientOptions> = {}) {
    const account = await sandbox.createAccount();
    const portal = portalFor(sandbox, account.id);
    const client = new CatalogClient({
      baseUrl: sandbox.url,
      apiKey: account.apiKey,
      clock: new SystemClock(),
      rate: { ratePerSecond: 100, burst: 10 },
      timeouts: { readMs: 5_000, writeMs: 100 },
      retry: { baseDelayMs: 5, timeoutSettleMs: 200 },
      ...options,
    });
    const count = async (method: string, path: string) => (await portal.requests({ method, path })).length;
    return { account, portal, client, count };
  }

  describe('PATCH and DELETE (item 5)', () => {
    it('a PATCH slower than the time-out is sent once and fails as write_outcome_unknown; it did land', async () => {
      const { portal, client, count } = await setup();
      const record = await client.createProduct(product('SLOW-PATCH'));
      await portal.setFaults({ latency: { ms: 1_500, method: 'PATCH' } });
      const error = (await client
        .updateProduct({
          product: { supplierSku: 'SLOW-PATCH', attributes: [{ key: 'price', value: '42' }] },
        })
        .catch((e: unknown) => e)) as CatalogClientError;
      expect(error).toMatchObject({
        code: 'write_outcome_unknown',
        retryable: true,
        status: null,
        attempts: 1,
        method: 'PATCH',
        path: '/v1/products',
        details: { ambiguousFailure: 'timeout', lastFailure: 'timeout', timeoutMs: 100 },
      });
      // Not re-sent while the first attempt may still be running (the issue saw 4, all applied).
      expect(await count('PATCH', '/v1/products')).toBe(1);
      // The caller re-reads, as the error says: the write landed after all.
      const reread = await eventually(
        () => client.getProduct(record.skuId),
        (r) => price(r) === '42',
      );
      expect(price(reread)).toBe('42');
      expect(await count('PATCH', '/v1/products')).toBe(1);
    });

    it('a PATCH whose every attempt answers 500 ends as write_outcome_unknown after maxAttempts', async () => {
      const { portal, client, count } = await setup({ retry: { baseDelayMs: 5, maxAttempts: 3 } });
      const record = await client.createProduct(product('PATCH-500'));
      await portal.setFaults({ error500: { method: 'PATCH' } });
      const error = await client
        .updateProductBySkuId(record.skuId, {
          product: { supplierSku: 'PATCH-500', attributes: [{ key: 'price', value: '1' }] },
        })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: 'write_outcome_unknown',
        status: 500,
        errorCode: 500,
        retryable: true,
        attempts: 3,
        details: { ambiguousFailure: 'internal_error', lastFailure: 'internal_error' },
      });
      expect(await count('PATCH', `/v1/products/${record.skuId}`)).toBe(3);
    });

    it('a PATCH dropped after its commit is sent again and succeeds (same values, no race)', async () => {
      const { portal, client, count } = await setup();
      await client.createProduct(product('PATCH-DROP'));
      await portal.setFaults({ commitThenDrop: { count: 1, method: 'PATCH' } });
      const patched = await client.updateProduct({
        product: { supplierSku: 'PATCH-DROP', attributes: [{ key: 'price', value: '7' }] },
      });
      expect(price(patched)).toBe('7');
      expect(await count('PATCH', '/v1/products')).toBe(2);
    });

    it('a DELETE slower than the time-out is sent again (a 404 would confirm it) and ends as write_outcome_unknown', async () => {
      const { account, portal, client, count } = await setup({ retry: { baseDelayMs: 5, maxAttempts: 2 } });
      const record = await client.createProduct(product('SLOW-DELETE'));
      await portal.setFaults({ latency: { ms: 1_500, method: 'DELETE' } });
      const error = await client.deleteProduct(record.skuId).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'write_outcome_unknown', attempts: 2, retryable: true });
      expect(await count('DELETE', `/v1/products/${record.skuId}`)).toBe(2);
      const gone = await eventually(
        async () => (await account.api.get(`/v1/products/${record.skuId}`)).status,
        (status) => status === 404,
      );
      expect(gone).toBe(404);
    });
  });

  describe('creates landing after the time-out and the settle wait (item 6)', () => {
    const slowCreate = { latency: { ms: 1_500, count: 1, method: 'POST', path: '/v1/products' } };

    it('default adopt-or-recreate: the known duplicate window, visible to findBySupplierSku', async () => {
      const { portal, client, count } = await setup();
      await portal.setFaults(slowCreate);
      const created = await client.createProduct(product('WINDOW'));
      // Time-out, settle wait, look-up (nothing yet), POST again: two POSTs.
      expect(await count('POST', '/v1/products')).toBe(2);
      // The first write lands later: two records, both found by supplierSku, newest first.
      const records = await eventually(
        () => client.findBySupplierSku('WINDOW'),
        (found) => found.length === 2,
      );
      expect(records).toHaveLength(2);
      expect(records.map((r) => r.skuId)).toContain(created.skuId);
      expect(records.every((r) => r.parentSkuId === null && r.supplierSku === 'WINDOW')).toBe(true);
    });

    it('adopt-or-throw: never a second POST; create_outcome_unknown names the supplierSku to reconcile', async () => {
      const { portal, client, count } = await setup();
      await portal.setFaults(slowCreate);
      const error = await client
        .createProduct(product('NO-TWICE'), { onAmbiguous: 'adopt-or-throw' })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: 'create_outcome_unknown',
        retryable: true,
        method: 'POST',
        path: '/v1/products',
        details: { supplierSku: 'NO-TWICE', createFailure: 'timeout', lookup: 'not_found', posts: 1 },
      });
      expect(await count('POST', '/v1/products')).toBe(1);
      expect(await count('POST', '/v1/products/search')).toBe(1);
      // Later reconciliation by supplierSku: exactly one record, adopted without another POST.
      const found = await eventually(
        () => client.findBySupplierSku('NO-TWICE'),
        (records) => records.length > 0,
      );
      expect(found).toHaveLength(1);
      const adopted = await client.createProduct(product('NO-TWICE'), { lookupFirst: true });
      expect(adopted.skuId).toBe(found[0]?.skuId);
      expect(await count('POST', '/v1/products')).toBe(1);
    });

    it('throw: create_outcome_unknown at once, no look-up, no second POST', async () => {
      const { portal, client, count } = await setup();
      await portal.setFaults(slowCreate);
      const error = await client
        .createProduct(product('CALLER-RECONCILES'), { onAmbiguous: 'throw' })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: 'create_outcome_unknown',
        details: { supplierSku: 'CALLER-RECONCILES', lookup: 'skipped', posts: 1 },
      });
      expect(await count('POST', '/v1/products')).toBe(1);
      expect(await count('POST', '/v1/products/search')).toBe(0);
    });

    it('every POST timing out ends as create_outcome_unknown, not as a bare time-out', async () => {
      const { portal, client, count } = await setup({
        retry: { maxAttempts: 2, baseDelayMs: 5, timeoutSettleMs: 200 },
      });
      await portal.setFaults({ latency: { ms: 1_500, method: 'POST', path: '/v1/products' } });
      const error = await client.createProduct(product('ALL-SLOW')).catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: 'create_outcome_unknown',
        details: { supplierSku: 'ALL-SLOW', createFailure: 'timeout', lookup: 'not_found', posts: 2 },
      });
      expect(await count('POST', '/v1/products')).toBe(2);
      expect(await count('POST', '/v1/products/search')).toBe(2);
    });
  });
});
