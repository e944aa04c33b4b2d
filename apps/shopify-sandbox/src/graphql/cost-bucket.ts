import { Clock } from '#lib/clock';

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

/**
 * The leaky bucket behind Admin GraphQL rate limits: `size` points, refilled at `restoreRate`
 * points per second of the injected clock. A query may run when the bucket holds its
 * requested cost; it then pays its actual cost.
 */
export class CostBucket {
  private available: number;
  private updatedAt: number;

  constructor(
    private readonly clock: Clock,
    readonly size: number,
    readonly restoreRate: number,
  ) {
    this.available = size;
    this.updatedAt = clock.now();
  }

  status(): ThrottleStatus {
    this.restore();
    return {
      maximumAvailable: this.size,
      currentlyAvailable: Math.floor(this.available),
      restoreRate: this.restoreRate,
    };
  }

  /** True when `cost` points are available now. */
  canAfford(cost: number): boolean {
    this.restore();
    return this.available >= cost;
  }

  pay(cost: number): void {
    this.restore();
    this.available = Math.max(0, this.available - cost);
  }

  /** Sets the level directly (control API), clamped to the bucket. */
  setAvailable(points: number): void {
    this.available = Math.min(this.size, Math.max(0, points));
    this.updatedAt = this.clock.now();
  }

  private restore(): void {
    const now = this.clock.now();
    const elapsedSeconds = Math.max(0, now - this.updatedAt) / 1000;
    this.available = Math.min(this.size, this.available + elapsedSeconds * this.restoreRate);
    this.updatedAt = now;
  }
}
