import { startChaosStack } from '../support/chaos-stack.js';
import { measure, type Scenario, sleep } from '../support/scenario.js';
import { ShopModel } from '../support/shop-model.js';

/**
 * `postgres-stopped`: the run's own PostgreSQL is stopped (connections refused) at a seeded
 * moment of a webhook burst, for 20 s (3 s in smoke), then started again; Shopify retries what
 * was answered 503.
 */
export const postgresStopped: Scenario = {
  name: 'postgres-stopped',
  summary: 'PostgreSQL stopped during a webhook burst, then started again',
  async run(context) {
    const products = context.smoke ? 12 : 200;
    const outageMs = context.smoke ? 3_000 : 20_000;
    const stack = await startChaosStack(context.infra);
    try {
      const model = new ShopModel(stack);
      const burst = model.createMany(products, context.random, 4);
      await sleep(context.random.int(200, context.smoke ? 800 : 3_000));
      await context.infra.postgres.halt();
      context.log(`PostgreSQL stopped for ${outageMs} ms`);
      await sleep(outageMs);
      await context.infra.postgres.resume();
      await burst;
      const deliveries = await stack.shopify.deliveries();
      const answered503 = deliveries.filter((d) => d.attempts.some((a) => a.status === 503)).length;
      return await measure(context, stack, model, { outageMs, answered503 });
    } finally {
      await stack.close();
    }
  },
};
