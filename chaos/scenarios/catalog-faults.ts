import { startChaosStack, waitFor } from '../support/chaos-stack.js';
import { snapshot } from '../support/outcome.js';
import { measure, type Scenario } from '../support/scenario.js';
import { ShopModel } from '../support/shop-model.js';

/**
 * `catalog-faults`: the catalog answers 500s, 429s, slowly, and commits writes then drops the
 * connection (seeded draws) while the merchant creates and changes products, and goes on until
 * most products are synced (the syncs trail the merchant): then the faults stop.
 */
export const catalogFaults: Scenario = {
  name: 'catalog-faults',
  summary: "the catalog's 500s, 429s, latency and commit-then-drop during a sync and edits",
  async run(context) {
    const products = context.smoke ? 12 : 300;
    const changes = context.smoke ? 10 : 150;
    const stack = await startChaosStack(context.infra);
    try {
      const model = new ShopModel(stack);
      await stack.account.controls.setFaults({
        error500: { probability: 0.08 },
        burst429: { probability: 0.08, retryAfterSeconds: 1 },
        latency: { probability: 0.2, ms: 250 },
        commitThenDrop: { probability: 0.05 },
        seed: context.random.int(1, 2 ** 31 - 1),
      });
      await model.createMany(products, context.random);
      await model.churn(changes, context.random);
      await waitFor('most products synced under faults', context.smoke ? 10_000 : 120_000, async () => {
        const now = await snapshot(stack, model);
        return now.synced >= model.products.size * 0.7;
      }).catch(() => undefined);
      const report = await stack.account.controls.faults();
      await stack.account.controls.clearFaults();
      return await measure(context, stack, model, { faults: report });
    } finally {
      await stack.close();
    }
  },
};
