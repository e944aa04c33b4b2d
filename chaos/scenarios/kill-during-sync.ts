import { startChaosStack } from '../support/chaos-stack.js';
import { measure, type Scenario, sleep } from '../support/scenario.js';
import { ShopModel } from '../support/shop-model.js';

/**
 * `kill-9-sync`: the merchant creates products (a third with three sizes), then edits them,
 * removes variants and deletes some, while the connector's process is killed with SIGKILL at
 * seeded random moments; its supervisor starts it again each time.
 */
export const killDuringSync: Scenario = {
  name: 'kill-9-sync',
  summary:
    'kill -9 of the connector at random moments during a sync with edits, variant removals and deletes',
  async run(context) {
    const products = context.smoke ? 12 : 300;
    const changes = context.smoke ? 10 : 150;
    const kills = context.smoke ? 2 : 12;
    const stack = await startChaosStack(context.infra);
    try {
      const model = new ShopModel(stack);
      const merchant = (async () => {
        await model.createMany(products, context.random);
        await model.churn(changes, context.random);
      })();
      const gapMs = context.smoke ? [400, 1_500] : [1_500, 6_000];
      for (let i = 0; i < kills; i++) {
        await sleep(context.random.int(gapMs[0] as number, gapMs[1] as number));
        await stack.connector.kill9();
        context.log(`kill -9 #${i + 1}`);
        await stack.connector.ready();
      }
      await merchant;
      return await measure(context, stack, model, { kills });
    } finally {
      await stack.close();
    }
  },
};
