import { startBenchStack, waitFor } from './support/bench-stack.js';
import type { Benchmark, BenchResult } from './support/benchmark.js';
import { callsSince } from './support/catalog-state.js';
import { enrichedProducts, readWriteBackLog } from './support/enriched-fixtures.js';
import { requireQueue } from './support/features.js';
import { ratio, round, sleep } from './support/figures.js';

const FEATURE =
  'write-back in the connector (the enrichment poller and the push of approved content to Shopify)';
const ADMIN_TOKEN = 'bench-catch-up-admin-token';

/**
 * `catch-up`: N mapped products (default 10,000, `BENCH_N`) with finished, approved enrichment
 * (Shopify products through the merchant API, records through the catalog's bulk fixtures, sku
 * map rows inserted into the connector's schema), then one write-back poll
 * (`POST /admin/enrichment/poll`) and its pushes, until every product's values are in Shopify.
 * Reports the catalog searches (the poll's and the pushes'; target at most 21 for 10,000), the
 * Shopify cost points spent per second / the sandbox's restore rate (target at least 0.9; the
 * rate is raised, `BENCH_RESTORE_RATE`, so the run takes minutes) and duplicates pushed (target
 * 0). The naive peer does no write-back: connector figures only.
 */
export const catchUp: Benchmark = {
  name: 'catch-up',
  summary: 'write-back catch-up over 10,000 enriched products: search calls, Shopify cost use, duplicates',
  async run(context): Promise<BenchResult> {
    requireQueue(/enrich|write-?back|poll/i, FEATURE);
    const count = context.smoke ? 20 : Number(process.env.BENCH_N ?? 10_000);
    const restoreRate = Number(process.env.BENCH_RESTORE_RATE ?? (context.smoke ? 2_000 : 1_000));
    const catalogRate = 500;
    const stack = await startBenchStack({
      catalogRate,
      peer: false,
      subscribe: false,
      // One second of restore in the bucket: the run's points come from the restore, not a burst.
      shopify: { cost: { bucketSize: Math.max(1_000, restoreRate), restoreRate } },
      connectorNodeArgs: context.connectorNodeArgs,
      connectorEnv: {
        CONNECTOR_ADMIN_TOKEN: ADMIN_TOKEN,
        // Only the poll the benchmark asks for: no scheduled one during the setup.
        CONNECTOR_ENRICHMENT_POLL_INTERVAL_MS: '86400000',
      },
    });
    const admin = async <T>(method: string, path: string): Promise<T> => {
      const answer = await fetch(`${stack.connector.url}${path}`, {
        method,
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`);
      return (await answer.json()) as T;
    };
    try {
      const setupStarted = performance.now();
      const products = await enrichedProducts(stack, count);
      const setupMs = Math.round(performance.now() - setupStarted);
      context.log(`catch-up: ${count} products set up in ${round(setupMs / 1000)} s`);
      await stack.shopify.control('DELETE', `shops/${stack.shop.domain}/admin-requests`);
      const started = Date.now();
      const t0 = performance.now();
      const { id } = await admin<{ id: string }>('POST', '/admin/enrichment/poll');
      let poll: PollStatus | null = null;
      await waitFor(
        'the poll and every push',
        async () => {
          poll = await admin<PollStatus>('GET', `/admin/enrichment/poll/${encodeURIComponent(id)}`);
          if (poll.status === 'failed') throw new Error(`poll failed: ${JSON.stringify(poll)}`);
          if (poll.status !== 'finished' || poll.pushes.pending > 0) {
            await sleep(500);
            return false;
          }
          const { rows } = await stack.db.query(
            `SELECT 1 FROM "${stack.schema}".enrichment_outbox WHERE state = 'pending' LIMIT 1`,
          );
          return rows.length === 0;
        },
        context.smoke ? 120_000 : 3_600_000,
      );
      const elapsedMs = Math.round(performance.now() - t0);
      const log = readWriteBackLog(await stack.shopify.adminRequests({ api: 'graphql' }));
      const written = products.filter((p) => log.productsWritten.has(`gid://shopify/Product/${p.productId}`));
      const calls = await callsSince(stack.connectorAccount, started);
      const searches = calls.filter((c) => c.method === 'POST' && c.path === '/v1/products/search').length;
      const finished = poll as PollStatus | null;
      const pollSearches = finished?.counts?.calls ?? null;
      const windowS =
        log.firstAt !== null && log.lastAt !== null ? Math.max(1, log.lastAt - log.firstAt) / 1000 : null;
      const pointsPerSecond = windowS ? log.costPoints / windowS : 0;
      const failures = await stack.db.query<{ n: string }>(
        `SELECT count(*) AS n FROM "${stack.schema}".failures WHERE state = 'open'`,
      );
      const figures = {
        products: count,
        setupMs,
        catalogRatePerSecond: catalogRate,
        shopifyRestoreRate: restoreRate,
        infrastructure: stack.infrastructure,
        connector: {
          productsWritten: written.length,
          allWritten: written.length === count,
          searchCalls: searches,
          pollSearchCalls: pollSearches,
          pushSearchCalls: pollSearches === null ? null : searches - pollSearches,
          catalogCalls: calls.length,
          shopifyCostPoints: log.costPoints,
          shopifyMutations: log.mutations,
          shopifyQueries: log.queries,
          shopifyThrottled: log.throttled,
          costPointsPerSecond: round(pointsPerSecond),
          costRatio: ratio(pointsPerSecond, restoreRate),
          duplicates: log.duplicates,
          openFailures: Number(failures.rows[0]?.n ?? 0),
          pollCounts: finished?.counts ?? null,
          elapsedMs,
        },
        naive: null,
        note: 'the naive peer does no write-back: connector figures only',
      };
      const c = figures.connector;
      return {
        figures,
        table: {
          head: ['figure (connector; the naive peer does no write-back)', 'connector'],
          rows: [
            ['products written / set up', `${c.productsWritten} / ${count}`],
            ['catalog searches, all (target <= 21 for 10,000)', c.searchCalls],
            ['  of which the poll', c.pollSearchCalls],
            ['  of which the pushes', c.pushSearchCalls],
            ['Shopify cost points', c.shopifyCostPoints],
            ['points / s', c.costPointsPerSecond],
            ['points / s / restore rate (target >= 0.9)', c.costRatio],
            ['Shopify requests throttled', c.shopifyThrottled],
            ['duplicates pushed (target 0)', c.duplicates],
            ['s from the poll to the last push', round(elapsedMs / 1000)],
          ],
        },
      };
    } finally {
      await stack.close();
    }
  },
};

/** `GET /admin/enrichment/poll/{id}`, the part the benchmark reads. */
interface PollStatus {
  status: string;
  counts?: Record<string, number> & { calls?: number };
  pushes: { pending: number; done: number };
}
