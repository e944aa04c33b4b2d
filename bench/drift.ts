import { startBenchStack } from './support/bench-stack.js';
import type { Benchmark, BenchResult } from './support/benchmark.js';
import { callsSince } from './support/catalog-state.js';
import { enrichedProducts } from './support/enriched-fixtures.js';
import { requireQueue } from './support/features.js';
import { round } from './support/figures.js';

const FEATURE = 'the drift report (issue 32: POST /admin/shops/{shop}/drift)';
const ADMIN_TOKEN = 'bench-drift-admin-token';

/**
 * `drift`: one drift report (`POST /admin/shops/{shop}/drift`) of a shop of N mapped simple
 * products (default 10,000, `BENCH_N`; smoke 300), set up as `catch-up` sets it up (merchant API,
 * bulk fixtures, sku map rows inserted), with 1 % of each kind it can plant cheaply: orphan
 * records, map rows whose snapshot the catalog no longer holds (`catalog-changed`), products
 * deleted from Shopify (`missed-webhook`) and pushed write-back values Shopify does not hold
 * (`written-back-differs`). Reports the catalog searches (target at most 21 for 10,000 records),
 * the Shopify requests and points, the time and the findings against those planted. No naive
 * peer runs: the figure beside it is computed (one `skuId $eq` search per map row).
 */
export const drift: Benchmark = {
  name: 'drift',
  summary: 'one drift report over 10,000 mapped records: catalog searches, Shopify cost, findings',
  async run(context): Promise<BenchResult> {
    requireQueue(/drift/i, FEATURE);
    const count = context.smoke ? 300 : Number(process.env.BENCH_N ?? 10_000);
    const planted = Math.max(1, Math.floor(count / 100));
    const catalogRate = 500;
    const stack = await startBenchStack({
      catalogRate,
      peer: false,
      subscribe: false,
      connectorNodeArgs: context.connectorNodeArgs,
      connectorEnv: {
        CONNECTOR_ADMIN_TOKEN: ADMIN_TOKEN,
        // Only the report the benchmark asks for, and no write-back poll during the setup.
        CONNECTOR_DRIFT_INTERVAL_MS: '0',
        CONNECTOR_ENRICHMENT_POLL_INTERVAL_MS: '86400000',
      },
    });
    try {
      const setupStarted = performance.now();
      const products = await enrichedProducts(stack, count);
      const handle = stack.shop.domain.replace(/\.myshopify\.com$/i, '');
      // Four disjoint slices of `planted` products, one per kind planted.
      const slice = (k: number) => products.slice(k * planted, (k + 1) * planted);
      const orphans = Array.from({ length: planted }, (_, i) => ({
        supplierSku: `${handle}:product:${9_000_000_000 + i}`,
        attributes: [
          { key: 'name', value: `Orphan ${i}` },
          { key: 'brand', value: 'Acme' },
        ],
      }));
      const bulk = await stack.catalog.portal.post(
        `/portal/v1/accounts/${stack.connectorAccount.id}/products/bulk`,
        { products: orphans },
      );
      if (bulk.status !== 200) throw new Error(`bulk orphans: ${bulk.status} ${JSON.stringify(bulk.body)}`);
      await stack.db.query(
        `UPDATE "${stack.schema}".sku_map SET snapshot = '{"name": "Bench tee, as last sent"}'::jsonb
          WHERE shop = $1 AND shopify_product_id = ANY($2::bigint[])`,
        [stack.shop.domain, slice(0).map((p) => p.productId)],
      );
      for (const product of slice(1)) await stack.merchant('DELETE', `products/${product.productId}.json`);
      const values: unknown[] = [stack.shop.domain];
      const tuples = slice(2).map((p, j) => {
        values.push(p.productId, `gid://shopify/Product/${p.productId}`);
        return `($1, $${2 + j * 2}::bigint, $${3 + j * 2}, 'seoTitle', 'seo.title', 'pushed', 'bench-planted', now())`;
      });
      await stack.db.query(
        `INSERT INTO "${stack.schema}".write_back_state
           (shop, product_id, owner_id, attribute, target_key, status, value_hash, updated_at)
         VALUES ${tuples.join(', ')}`,
        values,
      );
      const setupMs = Math.round(performance.now() - setupStarted);
      context.log(`drift: ${count} products set up in ${round(setupMs / 1000)} s`);

      await stack.shopify.control('DELETE', `shops/${stack.shop.domain}/admin-requests`);
      const started = Date.now();
      const t0 = performance.now();
      const answer = await fetch(`${stack.connector.url}/admin/shops/${stack.shop.domain}/drift`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      if (!answer.ok) throw new Error(`drift report: ${answer.status} ${await answer.text()}`);
      const report = (await answer.json()) as DriftAnswer;
      const elapsedMs = Math.round(performance.now() - t0);

      const calls = await callsSince(stack.connectorAccount, started);
      const searches = calls.filter((c) => c.method === 'POST' && c.path === '/v1/products/search').length;
      const requests = (await stack.shopify.adminRequests({ api: 'graphql' })).filter(
        (r) => r.api === 'graphql',
      );
      const perProduct = requests.filter((r) => /^WriteBack(Product|Variants)$/.test(r.operationName ?? ''));
      const expected = {
        orphan: planted,
        'catalog-changed': planted,
        'missed-webhook': planted,
        'written-back-differs': planted,
      };
      const findings = Object.values(report.counts).reduce((sum, n) => sum + n, 0);
      const figures = {
        products: count,
        records: count + planted,
        setupMs,
        catalogRatePerSecond: catalogRate,
        infrastructure: stack.infrastructure,
        connector: {
          catalogSearches: searches,
          reportedCatalogSearches: report.catalogSearches,
          searchTarget: Math.floor((count + planted) / 500) + 1,
          catalogCalls: calls.length,
          catalogRecords: report.catalogRecords,
          shopifyRequests: requests.length,
          shopifyQueries: requests.filter((r) => r.operationType === 'query').length,
          shopifyMutations: requests.filter((r) => r.operationType === 'mutation').length,
          shopifyPerProductReads: perProduct.length,
          shopifyPerProductPoints: perProduct.reduce((sum, r) => sum + (r.actualQueryCost ?? 0), 0),
          shopifyCostPoints: requests.reduce((sum, r) => sum + (r.actualQueryCost ?? 0), 0),
          shopifyThrottled: requests.filter((r) => r.outcome === 'throttled').length,
          shopifyOperations: countBy(requests.map((r) => r.operationName ?? '(anonymous)')),
          findings,
          counts: report.counts,
          expected,
          allFound: Object.entries(expected).every(([kind, n]) => report.counts[kind] === n),
          elapsedMs,
        },
        naive: { catalogSearches: count, note: 'computed: one skuId $eq search per map row' },
      };
      const c = figures.connector;
      return {
        figures,
        table: {
          head: ['figure', 'connector', 'naive (computed)'],
          rows: [
            ['records in the account', figures.records, figures.records],
            [`catalog searches (target <= ${c.searchTarget})`, c.catalogSearches, count],
            ['Shopify GraphQL requests', c.shopifyRequests, ''],
            ['  of which per-product write-back reads', c.shopifyPerProductReads, ''],
            ['Shopify cost points of those reads', c.shopifyPerProductPoints, ''],
            ['Shopify cost points', c.shopifyCostPoints, ''],
            ['Shopify requests throttled', c.shopifyThrottled, ''],
            ['findings / planted', `${c.findings} / ${planted * 4}`, ''],
            ['s for the report', round(elapsedMs / 1000), ''],
          ],
        },
      };
    } finally {
      await stack.close();
    }
  },
};

function countBy(names: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const name of names) counts[name] = (counts[name] ?? 0) + 1;
  return counts;
}

/** `POST /admin/shops/{shop}/drift`, the part the benchmark reads. */
interface DriftAnswer {
  catalogSearches: number;
  catalogRecords: number;
  counts: Record<string, number>;
}
