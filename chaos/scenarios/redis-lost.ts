import { type ChaosStack, startChaosStack, waitFor } from '../support/chaos-stack.js';
import { measure, type Scenario, sleep } from '../support/scenario.js';
import { ShopModel } from '../support/shop-model.js';

/**
 * `redis-lost`: the run's own `redis-server` (no persistence) is killed and started again empty
 * at seeded moments while the merchant creates and changes products: every job and job
 * scheduler is gone. Needs `redis-server`; without one the scenario reports `needs`.
 */
export const redisLost: Scenario = {
  name: 'redis-lost',
  summary: 'Redis restarted with its data lost during a sync and edits',
  async run(context) {
    const redis = context.infra.redis;
    if (redis === null) return { needs: 'redis-server (not installed)' };
    const products = context.smoke ? 12 : 300;
    const changes = context.smoke ? 10 : 150;
    const losses = context.smoke ? 1 : 3;
    // The production debounce: more jobs wait in Redis when it goes.
    const stack = await startChaosStack(context.infra, { CONNECTOR_SYNC_DEBOUNCE_MS: '1000' });
    try {
      const model = new ShopModel(stack);
      const merchant = (async () => {
        await model.createMany(products, context.random);
        await model.churn(changes, context.random);
      })();
      for (let i = 0; i < losses; i++) {
        await sleep(context.random.int(300, context.smoke ? 1_200 : 8_000));
        await redis.restartWithoutData();
        context.log(`Redis restarted empty #${i + 1}`);
      }
      await merchant;
      // The connector must notice by itself (`/health`, dependencies.queue), not by a restart.
      let noticed = 0;
      await waitFor('the connector to notice the lost queue state', 30_000, async () => {
        noticed = await stateLosses(stack);
        return noticed >= 1;
      }).catch(() => undefined);
      const result = await measure(context, stack, model, { losses });
      if ('figures' in result) {
        result.figures.stateLossesNoticed = await stateLosses(stack);
        if (noticed < 1) result.figures.converged = false;
      }
      return result;
    } finally {
      await stack.close();
    }
  },
};

/** How many times the connector says it found the queue's state lost. */
async function stateLosses(stack: ChaosStack): Promise<number> {
  const health = (await (await fetch(`${stack.connector.url}/health`)).json()) as {
    dependencies: Record<string, { details?: { stateLosses?: number } }>;
  };
  return health.dependencies.queue?.details?.stateLosses ?? 0;
}
