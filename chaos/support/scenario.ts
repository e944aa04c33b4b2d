import type { ChaosInfrastructure, ChaosStack } from './chaos-stack.js';
import {
  awaitConvergence,
  deliveryFigures,
  openFailures,
  type ScenarioFigures,
  snapshot,
} from './outcome.js';
import type { Random } from './seeded-random.js';
import type { ShopModel } from './shop-model.js';

/** What the runner gives every scenario. */
export interface ScenarioContext {
  smoke: boolean;
  random: Random;
  infra: ChaosInfrastructure;
  log(line: string): void;
}

/** A scenario's figures, or what it needs and did not find (it is then not run, and does not fail). */
export type ScenarioResult = { figures: ScenarioFigures & Record<string, unknown> } | { needs: string };

export interface Scenario {
  name: string;
  summary: string;
  run(context: ScenarioContext): Promise<ScenarioResult>;
}

/** Waits for convergence from the end of the disturbance, then measures everything. */
export async function measure(
  context: ScenarioContext,
  stack: ChaosStack,
  model: ShopModel,
  extra: Record<string, unknown> = {},
): Promise<ScenarioResult> {
  const convergeMs = await awaitConvergence(stack, model, context.smoke ? 45_000 : 900_000);
  const now = await snapshot(stack, model);
  const deliveries = await deliveryFigures(stack);
  return {
    figures: {
      sent: deliveries.sent,
      acknowledged: deliveries.acknowledged,
      products: model.products.size,
      synced: now.synced,
      duplicates: now.duplicates,
      lostDeliveries: deliveries.lostDeliveries,
      lostUpdates: now.lostUpdates,
      valuesWrittenTwice: 0,
      converged: convergeMs !== null,
      convergeMs,
      failuresOpen: await openFailures(stack),
      restartsByHand: 0,
      automaticRestarts: stack.connector.automaticRestarts,
      ...extra,
    },
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
