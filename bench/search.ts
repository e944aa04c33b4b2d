import { CatalogClient } from '#lib/catalog-client';
import type { ProductSearchRequest } from '#lib/catalog-contract';
import { startCatalogSandbox } from '#testing/catalog-sandbox';
import type { BenchContext, Benchmark, BenchResult } from './support/benchmark.js';
import { quantile, round } from './support/figures.js';

const T0 = Date.UTC(2025, 0, 1);
/** The spec's promise for indexed look-ups, at p95. */
const INDEXED_TARGET_MS = 50;

/** One kind of search: its name, whether the spec indexes it, and the call for iteration `i`. */
interface SearchCase {
  name: string;
  indexed: boolean;
  iterations: number;
  call(i: number): Promise<unknown>;
}

/**
 * `search`: the catalog sandbox's product search over HTTP, called with the connector's own
 * client (`#lib/catalog-client`) as the connector calls it, over 100,000 products loaded with the
 * bulk fixtures. p50 and p95 of the indexed look-ups (skuId, supplierSku, createdAt; target p95
 * at most 50 ms), an attribute filter, a keyword, and the connector's completedAt poll.
 * `catalog-search.bench.ts` measures the same searches in-process (no HTTP, no JSON).
 */
export const search: Benchmark = {
  name: 'search',
  summary: 'catalog product search over HTTP with the connector client: p50/p95 per kind of query',
  async run(context: BenchContext): Promise<BenchResult> {
    const count = context.smoke ? 2_000 : 100_000;
    const scale = context.smoke ? 0.1 : 1;
    const catalog = await startCatalogSandbox();
    const client = { current: null as CatalogClient | null };
    try {
      const account = await catalog.createAccount();
      context.log(`search: loading ${count.toLocaleString('en')} products with the bulk fixtures`);
      const loaded = await catalog.portal.post(`/portal/v1/accounts/${account.id}/products/bulk`, {
        products: fixture(count),
      });
      if (loaded.status !== 200) throw new Error(`bulk load refused: ${loaded.status}`);
      const skuIds = [...catalog.sandbox.accounts.require(account.id).products.all()].map((p) => p.skuId);
      const api = new CatalogClient({
        baseUrl: catalog.url,
        apiKey: account.apiKey,
        rate: { ratePerSecond: 100_000, burst: 1_000 },
      });
      client.current = api;
      const pick = (i: number) => (i * 7_919) % count;
      const find = (body: ProductSearchRequest) => api.searchProducts(body);
      const cases: SearchCase[] = [
        {
          name: 'skuId $eq',
          indexed: true,
          iterations: 300,
          call: (i) => find({ filter: { skuId: { $eq: skuIds[pick(i)] as string } } }),
        },
        {
          name: 'GET /v1/products/{skuId}',
          indexed: true,
          iterations: 300,
          call: (i) => api.getProduct(skuIds[pick(i)] as string),
        },
        {
          name: 'supplierSku $eq',
          indexed: true,
          iterations: 300,
          call: (i) => api.findBySupplierSku(`bench-${pick(i)}`),
        },
        {
          name: 'createdAt range, first page of 100',
          indexed: true,
          iterations: 100,
          call: (i) =>
            find({
              filter: { createdAt: { $gte: T0 + pick(i) * 1_000 } },
              sort: { field: 'createdAt', order: 'ASC' },
              pagination: { offset: 0, limit: 100 },
            }),
        },
        {
          name: 'createdAt range, first page of 500 (the connector pages by 500)',
          indexed: true,
          iterations: 100,
          call: (i) =>
            find({
              filter: { createdAt: { $gte: T0 + pick(i) * 1_000 } },
              sort: { field: 'createdAt', order: 'ASC' },
              pagination: { offset: 0, limit: 500 },
            }),
        },
        {
          name: 'attribute value filter (brand), 500',
          indexed: false,
          iterations: 30,
          call: () =>
            find({
              filter: { attributes: [{ key: { $eq: 'brand' }, value: { $eq: 'Globex' } }] },
              pagination: { offset: 0, limit: 500 },
            }),
        },
        {
          name: 'keyword',
          indexed: false,
          iterations: 30,
          call: (i) => find({ filter: { keyword: `product ${pick(i)}` } }),
        },
        {
          name: 'completedAt poll past a checkpoint, 500, sorted',
          indexed: false,
          iterations: 30,
          call: (i) =>
            find({
              filter: {
                dataEnrichment: {
                  status: { $in: ['FINISHED'] },
                  completedAt: { $gt: T0 + (pick(i) % (count - 600)) * 1_000 },
                },
              },
              sort: { field: 'dataEnrichment.completedAt', order: 'ASC' },
              pagination: { offset: 0, limit: 500 },
            }),
        },
      ];
      const results: Array<{
        name: string;
        indexed: boolean;
        calls: number;
        p50Ms: number;
        p95Ms: number;
        maxMs: number;
      }> = [];
      for (const c of cases) {
        const iterations = Math.max(5, Math.round(c.iterations * scale));
        for (let i = 0; i < 3; i++) await c.call(i); // warm-up
        const times: number[] = [];
        for (let i = 0; i < iterations; i++) {
          const start = performance.now();
          await c.call(i + 3);
          times.push(performance.now() - start);
        }
        results.push({
          name: c.name,
          indexed: c.indexed,
          calls: iterations,
          p50Ms: round(quantile(times, 0.5), 2),
          p95Ms: round(quantile(times, 0.95), 2),
          maxMs: round(Math.max(...times), 2),
        });
      }
      const indexedP95 = Math.max(...results.filter((r) => r.indexed).map((r) => r.p95Ms));
      return {
        figures: {
          products: count,
          results,
          indexedWorstP95Ms: indexedP95,
          indexedTargetMet: indexedP95 <= INDEXED_TARGET_MS,
        },
        table: {
          head: ['query', 'indexed', 'calls', 'p50 ms', 'p95 ms', 'max ms'],
          rows: results.map((r) => [r.name, r.indexed ? 'yes' : 'scan', r.calls, r.p50Ms, r.p95Ms, r.maxMs]),
        },
      };
    } finally {
      await client.current?.close();
      await catalog.close();
    }
  },
};

/** `count` products: a third enriched (FINISHED, completedAt), half categorised, a seventh Globex. */
function fixture(count: number): unknown[] {
  return Array.from({ length: count }, (_, i) => ({
    supplierSku: `bench-${i}`,
    createdAt: T0 + i * 1_000,
    attributes: [
      { key: 'name', value: `Bench product ${i}` },
      { key: 'brand', value: i % 7 === 0 ? 'Globex' : 'Acme' },
      { key: 'description', value: `<p>A sturdy bench product ${i} made for everyday use.</p>` },
      ...(i % 2 === 0 ? [{ key: 'productCategory', value: 'apparel-tops-tshirts' }] : []),
    ],
    ...(i % 3 === 0 ? { dataEnrichment: { status: 'FINISHED', completedAt: T0 + i * 1_000 + 500 } } : {}),
  }));
}
