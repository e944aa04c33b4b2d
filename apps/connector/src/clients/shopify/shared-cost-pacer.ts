import type { Clock } from '#lib/clock';
import type { CostSlot, ShopCostPacer, ThrottleStatus } from './cost-pacer.js';
import type { SharedCostBuckets } from './shared-cost-buckets.js';

/** A waiting call looks at the shared bucket again at least this often. */
const RECHECK_MS = 100;

/**
 * One shop's pacer over the bucket its replicas share (`SharedCostBuckets`): a call goes only
 * once the shared bucket gave it its requested cost, whichever worker or replica sends it.
 */
export class SharedCostPacer implements ShopCostPacer {
  constructor(
    private readonly shop: string,
    private readonly buckets: SharedCostBuckets,
    private readonly clock: Clock,
  ) {}

  /** Nothing is known without asking the database: a throttled call waits its own second. */
  waitFor(): number {
    return 0;
  }

  /** A report from a call that took nothing (the write-back's raw calls). */
  observe(status: ThrottleStatus | undefined): void {
    if (status) void this.buckets.settle(this.shop, status, 0, this.clock.now()).catch(() => undefined);
  }

  async reserve(cost: number): Promise<CostSlot> {
    for (let wait = await this.take(cost); wait > 0; wait = await this.take(cost))
      await this.clock.sleep(Math.min(wait, RECHECK_MS));
    return {
      observe: async (status, refund = 0) => {
        if (status) await this.buckets.settle(this.shop, status, refund, this.clock.now());
      },
      release: () => undefined,
    };
  }

  private take(cost: number): Promise<number> {
    return this.buckets.take(this.shop, cost, this.clock.now());
  }
}
