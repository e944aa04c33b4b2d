// Bulk fixtures: 100,000 products into a catalog sandbox account over HTTP.
// Run on demand: `npx vitest bench --run bench/catalog-bulk-load.bench.ts` (reports ops/s). `npm test` runs
// it only small (BENCH_PRODUCTS=2000, bench/README.md), to check that it still works.
import { afterAll, beforeAll, describe, test } from 'vitest';
import { type CatalogSandboxHarness, startCatalogSandbox, type TestAccount } from '#testing/catalog-sandbox';

const COUNT = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const T0 = Date.UTC(2025, 0, 1);

/** COUNT products (100,000 by default) as a benchmark would set them up: a third enriched, half categorised. */
function fixture(): unknown[] {
  return Array.from({ length: COUNT }, (_, i) => ({
    supplierSku: `bench-${i}`,
    createdAt: T0 + i * 1000,
    attributes: [
      { key: 'name', value: `Bench product ${i}` },
      { key: 'brand', value: i % 7 === 0 ? 'Globex' : 'Acme' },
      ...(i % 2 === 0 ? [{ key: 'productCategory', value: 'apparel-tops-tshirts' }] : []),
      ...(i % 3 === 0
        ? [
            {
              key: 'aiTitle',
              value: `Acme product ${i}`,
              blame: 'ENRICHMENT',
              sources: [{ id: 'src_1', type: 'YOUR_DATA' }],
            },
          ]
        : []),
    ],
    ...(i % 3 === 0 ? { dataEnrichment: { status: 'FINISHED', completedAt: T0 + i * 1000 + 500 } } : {}),
  }));
}

describe('catalog sandbox: bulk fixtures', () => {
  let sandbox: CatalogSandboxHarness;
  let account: TestAccount;
  const body = { products: fixture() };
  beforeAll(async () => {
    sandbox = await startCatalogSandbox();
    account = await sandbox.createAccount();
  });
  afterAll(() => sandbox.close());

  test(`bulk-load ${COUNT.toLocaleString('en')} products over HTTP`, async ({ bench }) => {
    await bench('POST /portal/v1/accounts/{id}/products/bulk (account emptied first)', async () => {
      await sandbox.portal.delete(`/portal/v1/accounts/${account.id}/products`);
      const res = await sandbox.portal.post(`/portal/v1/accounts/${account.id}/products/bulk`, body);
      if (res.status !== 200 || res.body.data.created !== COUNT)
        throw new Error(`bulk load failed: ${res.status}`);
    }).run({ iterations: Number(process.env.BENCH_ITERATIONS ?? 5), time: 0, warmupIterations: 1 });
  }, 300_000);
});
