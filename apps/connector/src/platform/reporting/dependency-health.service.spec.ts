import { describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import type { OperationsSettings } from '../config/settings.js';
import { DependencyHealth } from './dependency-health.service.js';

// 200 shops and 200 catalog accounts: 400 dependency checks a round, 8 at a time.
describe('the dependency checks of 200 shops and accounts', () => {
  it('run at most CONNECTOR_SHOP_CHECK_CONCURRENCY at once, and every one each round', async () => {
    const health = new DependencyHealth(new ManualClock(), { shopCheckConcurrency: 8 } as OperationsSettings);
    let inFlight = 0;
    let peak = 0;
    for (let i = 0; i < 400; i++) {
      health.register({
        name: i % 2 === 0 ? `shopify:shop-${i}.myshopify.com` : `catalog:http://catalog#${i}`,
        run: async () => {
          inFlight += 1;
          peak = Math.max(peak, inFlight);
          await new Promise((resolve) => setImmediate(resolve));
          inFlight -= 1;
          return { status: 'up', details: {} };
        },
      });
    }
    await health.checkAll();
    expect(peak).toBe(8);
    const reports = Object.values(health.snapshot());
    expect(reports).toHaveLength(400);
    expect(reports.every((r) => r.status === 'up')).toBe(true);
  });
});
