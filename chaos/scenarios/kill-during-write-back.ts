import type { BenchStack } from '../../bench/support/bench-stack.js';
import { enrichedProducts, readWriteBackLog } from '../../bench/support/enriched-fixtures.js';
import { type ChaosStack, startChaosStack, waitFor } from '../support/chaos-stack.js';
import { deliveryFigures, openFailures } from '../support/outcome.js';
import { type Scenario, sleep } from '../support/scenario.js';

/**
 * `kill-9-write-back`: products whose catalog records hold approved AI content (the catch-up
 * benchmark's fixture), one write-back poll, and the connector killed with SIGKILL at seeded
 * moments while it pushes the values to Shopify. Every value must reach Shopify exactly once.
 */
export const killDuringWriteBack: Scenario = {
  name: 'kill-9-write-back',
  summary: 'kill -9 of the connector during write-back pushes',
  async run(context) {
    const count = context.smoke ? 10 : 200;
    const kills = context.smoke ? 2 : 8;
    const stack = await startChaosStack(context.infra, { CONNECTOR_ENRICHMENT_PUSH_CONCURRENCY: '2' });
    try {
      // The shop's sync is paused until the write-back is done (pushes do not wait for it), so the
      // records stay the fixture's (with the approved values) and the map rows point at them; the
      // deliveries meanwhile wait in the inbox, and are synced once it resumes.
      await stack.admin('POST', '/admin/sync/pause', { reason: 'chaos fixture' });
      const products = await enrichedProducts(benchView(stack), count);
      await stack.shopify.control('DELETE', `shops/${stack.shopify.shopDomain}/admin-requests`);
      await stack.admin('POST', '/admin/enrichment/poll');
      for (let i = 0; i < kills; i++) {
        await sleep(context.random.int(context.smoke ? 200 : 500, context.smoke ? 900 : 3_000));
        await stack.connector.kill9();
        context.log(`kill -9 #${i + 1}`);
        await stack.connector.ready();
        // A poll killed before it wrote the outbox is asked for again, as an operator would see it
        // missing; the push jobs of a killed process are the queue's to run again.
        await stack.admin('POST', '/admin/enrichment/poll');
      }
      const started = performance.now();
      const gid = (id: string) => `gid://shopify/Product/${id}`;
      let written = 0;
      const converged = await waitFor(
        'every product written back',
        context.smoke ? 45_000 : 900_000,
        async () => {
          const log = readWriteBackLog(await stack.shopify.adminRequests({ api: 'graphql' }));
          written = products.filter((p) => log.productsWritten.has(gid(p.productId))).length;
          const { rows } = await stack.db.query(
            `SELECT 1 FROM "${stack.schema}".enrichment_outbox WHERE state = 'pending' LIMIT 1`,
          );
          return written === count && rows.length === 0;
        },
      )
        .then(async () => {
          await stack.admin('POST', '/admin/sync/resume', {});
          await waitFor('the inbox to drain', context.smoke ? 30_000 : 600_000, async () => {
            const { rows } = await stack.db.query(
              `SELECT 1 FROM "${stack.schema}".inbox WHERE state = 'received' LIMIT 1`,
            );
            return rows.length === 0;
          });
          return true;
        })
        .catch(() => false);
      const convergeMs = converged ? Math.round(performance.now() - started) : null;
      const log = readWriteBackLog(await stack.shopify.adminRequests({ api: 'graphql' }));
      const deliveries = await deliveryFigures(stack);
      return {
        figures: {
          sent: deliveries.sent,
          acknowledged: deliveries.acknowledged,
          products: count,
          synced: written,
          duplicates: 0,
          lostDeliveries: deliveries.lostDeliveries,
          lostUpdates: count - written,
          valuesWrittenTwice: log.duplicates,
          converged,
          convergeMs,
          failuresOpen: await openFailures(stack),
          restartsByHand: 0,
          automaticRestarts: stack.connector.automaticRestarts,
          kills,
          shopifyMutations: log.mutations,
        },
      };
    } finally {
      await stack.close();
    }
  },
};

/** The part of a bench stack the catch-up fixture uses, made of the chaos stack. */
function benchView(stack: ChaosStack): BenchStack {
  return {
    catalog: stack.catalog,
    shopify: stack.shopify,
    connectorAccount: stack.account,
    db: stack.db,
    schema: stack.schema,
    shop: {
      domain: stack.shopify.shopDomain,
      accessToken: stack.shopify.accessToken,
      secret: stack.shopify.appSecret,
    },
    merchant: stack.merchant,
  } as unknown as BenchStack;
}
