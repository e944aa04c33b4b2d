import { DelayedError, type Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { SystemClock } from '#lib/clock';
import type { ShopifyAdmin } from '../clients/shopify/shopify-admin.service.js';
import type { ShopMappings } from '../mapping/shop-mappings.service.js';
import type { CatalogSettings, HttpSettings, ShopifySettings } from '../platform/config/settings.js';
import type { ShopConfig } from '../platform/config/shop-config.js';
import type { FailuresService } from '../platform/failures/failures.service.js';
import { JobGuard } from '../platform/failures/job-guard.service.js';
import { ShopAuthError, ShopAuthErrorCode } from '../shops/shop-auth.error.js';
import type { ShopSessionRepository } from '../shops/shop-sessions.repository.js';
import type { ShopTurns } from '../shops/shop-turns.service.js';
import { Shops } from '../shops/shops.js';
import { SubscriptionCheckJob } from './subscription-check.job.js';
import { SubscriptionRepair } from './subscription-repair.service.js';

const SHOP = 'replica.myshopify.com';

/** The check of one shop whose row is active, its Admin API calls answered by `request`. */
function checkJob(request: () => Promise<unknown>, asked?: { shops: Shops; data: { shop: string } }) {
  const repair = new SubscriptionRepair(
    { publicUrl: 'https://connector.example' } as HttpSettings,
    { all: [{ domain: SHOP }] } as unknown as Shops,
    {
      find: async () => ({ state: 'active' }),
      recordSubscriptions: async () => undefined,
    } as unknown as ShopSessionRepository,
    { forShop: () => ({ request }) } as unknown as ShopifyAdmin,
    new SystemClock(),
    { scopeOf: () => null } as unknown as ShopMappings,
  );
  const guard = new JobGuard({} as FailuresService, { pauseRecheckMs: 1_000 } as CatalogSettings);
  const delays: number[] = [];
  const job = {
    id: 'check-1',
    name: 'subscription-check',
    data: asked?.data ?? {},
    moveToDelayed: async (at: number) => {
      delays.push(at - Date.now());
    },
  } as unknown as Job<Record<string, never>>;
  // The scheduled check's tick: the shop's turn came.
  const turns = { due: () => [{ domain: SHOP }] } as unknown as ShopTurns;
  const shops = asked?.shops ?? ({ find: () => ({ domain: SHOP }) } as unknown as Shops);
  const settings = { subscriptionCheckMs: 3_600_000 } as ShopifySettings;
  return {
    run: () => new SubscriptionCheckJob(repair, guard, turns, shops, settings).process(job, 'token'),
    delays,
  };
}

describe('the subscription check', () => {
  it('waits and runs again when this replica has no token yet for a shop its row says is active', async () => {
    // Installed through another replica: this one remembers the shop as not installed a while.
    const { run, delays } = checkJob(async () => {
      throw new ShopAuthError(ShopAuthErrorCode.NEEDS_REAUTH, `${SHOP} is needs_reauth`, 500);
    });
    await expect(run()).rejects.toBeInstanceOf(DelayedError);
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThan(400);
    expect(delays[0]).toBeLessThanOrEqual(500);
  });

  it('ends when Shopify cannot be asked for another reason: the next scheduled check tries again', async () => {
    const { run, delays } = checkJob(async () => {
      throw new Error('socket hang up');
    });
    expect(await run()).toEqual([{ shop: SHOP, outcome: 'failed', recreated: [] }]);
    expect(delays).toEqual([]);
  });

  it('ends once the shop is checked', async () => {
    const { run, delays } = checkJob(async () => ({
      webhookSubscriptions: { nodes: [] },
      webhookSubscriptionCreate: { userErrors: [] },
    }));
    const [result] = await run();
    expect(result).toMatchObject({ shop: SHOP, outcome: 'checked' });
    expect(result?.recreated.length).toBeGreaterThan(0);
    expect(delays).toEqual([]);
  });

  it('checks a shop installed at another replica a moment ago, reading the table before giving up on it', async () => {
    // The install's callback enqueued the check at the other replica; this one has not read the row yet.
    let rows: ShopConfig[] = [];
    let refreshes = 0;
    const shops = new Shops([], async () => {
      refreshes++;
      return rows;
    });
    await shops.refresh();
    rows = [{ domain: SHOP } as ShopConfig];
    refreshes = 0;
    const { run } = checkJob(
      async () => ({ webhookSubscriptions: { nodes: [] }, webhookSubscriptionCreate: { userErrors: [] } }),
      { shops, data: { shop: SHOP } },
    );
    const [result] = await run();
    expect(refreshes).toBe(1);
    expect(result).toMatchObject({ shop: SHOP, outcome: 'checked' });
    expect(result?.recreated.length).toBeGreaterThan(0);
  });
});
