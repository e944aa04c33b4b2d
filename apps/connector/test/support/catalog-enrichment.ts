import { Clock } from '#lib/clock';
import type { TestAccount } from '#testing/catalog-sandbox';
import type { Sandboxes } from './sandboxes.js';

/**
 * An enrichment run of `skuIds` in the catalog sandbox's portal, stepped to its end, every record
 * completed at `at` (a time in the past: a catalog whose write became visible late).
 */
export async function enrichedAt(
  sandboxes: Sandboxes,
  account: TestAccount,
  skuIds: string[],
  at: number,
): Promise<void> {
  const clock = sandboxes.catalog.app.get(Clock);
  const now = clock.now.bind(clock);
  clock.now = () => at;
  try {
    const portal = sandboxes.catalog.portal;
    const base = `/portal/v1/accounts/${account.id}/enrichment/runs`;
    const run = await portal.post(base, { skuIds, mode: 'manual', batchSize: skuIds.length });
    if (run.status !== 200) throw new Error(`run: ${JSON.stringify(run.body)}`);
    for (const _ of [1, 2]) await portal.post(`${base}/${run.body.data.runId}/step`);
  } finally {
    clock.now = now;
  }
}
