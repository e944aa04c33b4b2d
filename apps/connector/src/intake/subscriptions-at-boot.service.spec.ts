import { describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import type { ShopConfig } from '../platform/config/connector.config.js';
import type { HttpSettings, OperationsSettings } from '../platform/config/settings.js';
import type { Shops } from '../shops/shops.js';
import type { SubscriptionRepair } from './subscription-repair.service.js';
import { SubscriptionsAtBoot } from './subscriptions-at-boot.service.js';

// 200 shops booting: their webhook subscriptions are checked in the background, 8 shops at a
// time, each once; a shop whose check fails waits out its back-off without holding a turn.
describe("the boot's subscription pass over 200 shops", () => {
  it('runs in the background, at most 8 shops at once, a failing shop retried without holding a turn', async () => {
    const shops = Array.from(
      { length: 200 },
      (_, i) => ({ domain: `boot-${i}.myshopify.com` }) as ShopConfig,
    );
    const clock = new ManualClock();
    let inFlight = 0;
    let peak = 0;
    const checked: string[] = [];
    let flaky = 2;
    const repair = {
      ensureShop: async (shop: ShopConfig) => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
        inFlight -= 1;
        // One shop's Shopify fails twice, then answers.
        if (shop.domain === 'boot-7.myshopify.com' && flaky-- > 0) throw new Error('socket hang up');
        checked.push(shop.domain);
        return [];
      },
    } as unknown as SubscriptionRepair;
    const boot = new SubscriptionsAtBoot(
      { publicUrl: 'https://connector.example' } as HttpSettings,
      { all: shops } as unknown as Shops,
      clock,
      repair,
      { shopCheckConcurrency: 8 } as OperationsSettings,
    );
    boot.onApplicationBootstrap();
    expect(checked).toEqual([]);
    let settled = false;
    void boot.booted.then(() => {
      settled = true;
    });
    for (let round = 0; !settled; round++) {
      // The failing shop's back-off (1 s, then 2 s) on the injected clock.
      await clock.advance(1_000);
      await new Promise((resolve) => setImmediate(resolve));
      if (round > 1_000) throw new Error(`stuck at ${checked.length}`);
    }
    expect(peak).toBe(8);
    expect(checked).toHaveLength(200);
    expect(new Set(checked).size).toBe(200);
    expect(checked.at(-1)).toBe('boot-7.myshopify.com');
  });
});
