import type { Clock } from '#lib/clock';
import { CostPacer, type CostSlot, type ShopCostPacer, type ThrottleStatus } from './cost-pacer.js';
import type { SharedCostBuckets } from './shared-cost-buckets.repository.js';

/** A waiting call looks at the shared bucket again at least this often. */
const RECHECK_MS = 100;

/**
 * One shop's pacer over the bucket its replicas share (`SharedCostBuckets`): a call goes only
 * once the shared bucket gave it its requested cost, whichever worker or replica sends it. While
 * PostgreSQL cannot be reached, the shop's calls are paced in this process (`CostPacer`, which
 * sees every report too): a database outage never reads as a Shopify one.
 */
export class SharedCostPacer implements ShopCostPacer {
  private readonly local: CostPacer;

  constructor(
    private readonly shop: string,
    private readonly buckets: SharedCostBuckets,
    private readonly clock: Clock,
  ) {
    this.local = new CostPacer(clock);
  }

  /** This process's estimate from the last report (for the wait after a `THROTTLED`). */
  waitFor(cost: number): number {
    return this.local.waitFor(cost);
  }

  /** A report from a call that took nothing (the write-back's raw calls). */
  observe(status: ThrottleStatus | undefined): void {
    this.local.observe(status);
    if (status) void this.buckets.settle(this.shop, status, 0, this.clock.now()).catch(() => undefined);
  }

  async reserve(cost: number): Promise<CostSlot> {
    try {
      for (let wait = await this.take(cost); wait > 0; wait = await this.take(cost))
        await this.clock.sleep(Math.min(wait, RECHECK_MS));
    } catch {
      return this.local.reserve(cost);
    }
    return {
      observe: async (status, refund = 0) => {
        this.local.observe(status);
        if (status)
          await this.buckets.settle(this.shop, status, refund, this.clock.now()).catch(() => undefined);
      },
      release: () => undefined,
    };
  }

  private take(cost: number): Promise<number> {
    return this.buckets.take(this.shop, cost, this.clock.now());
  }
}
