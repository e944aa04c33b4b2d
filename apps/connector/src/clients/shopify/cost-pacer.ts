import type { Clock } from '#lib/clock';

/** Shopify's `extensions.cost.throttleStatus`. */
export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

/**
 * Paces one shop's Admin GraphQL calls by the last `throttleStatus` Shopify reported: before a
 * call that may cost `cost` points, waits until the leaky bucket (refilled at `restoreRate` per
 * second since that report) holds them. Without a report yet, calls go at once.
 */
export class CostPacer {
  private last: { status: ThrottleStatus; at: number } | null = null;

  constructor(private readonly clock: Clock) {}

  observe(status: ThrottleStatus | undefined): void {
    if (status) this.last = { status, at: this.clock.now() };
  }

  /** Milliseconds to wait before a call of `cost` points. */
  waitFor(cost: number): number {
    if (this.last === null) return 0;
    const { status, at } = this.last;
    if (status.restoreRate <= 0) return 0;
    const needed = Math.min(cost, status.maximumAvailable);
    const elapsed = Math.max(0, this.clock.now() - at) / 1000;
    const available = Math.min(
      status.maximumAvailable,
      status.currentlyAvailable + elapsed * status.restoreRate,
    );
    return available >= needed ? 0 : Math.ceil(((needed - available) / status.restoreRate) * 1000);
  }

  async pace(cost: number): Promise<void> {
    const wait = this.waitFor(cost);
    if (wait > 0) await this.clock.sleep(wait);
  }
}
