import type { SyncHooks } from './sync-seams.js';

/** Records what sync jobs do (runs, overlaps, lock waits) and can hold a run after its Shopify read. */
export class SyncProbe {
  readonly started = new Map<string, number>();
  readonly lockBusy = new Map<string, number>();
  readonly maxConcurrent = new Map<string, number>();
  private readonly running = new Map<string, number>();
  private readonly holds = new Map<string, { reached: () => void; release: Promise<void> }>();
  /** Extra time each run spends after its Shopify read (to make runs overlap if they could). */
  slowMs = 0;

  readonly hooks: Partial<SyncHooks> = {
    runStarted: ({ productId }) => {
      this.started.set(productId, (this.started.get(productId) ?? 0) + 1);
      const now = (this.running.get(productId) ?? 0) + 1;
      this.running.set(productId, now);
      this.maxConcurrent.set(productId, Math.max(now, this.maxConcurrent.get(productId) ?? 0));
    },
    runEnded: ({ productId }) => {
      this.running.set(productId, (this.running.get(productId) ?? 1) - 1);
    },
    lockBusy: ({ productId }) => {
      this.lockBusy.set(productId, (this.lockBusy.get(productId) ?? 0) + 1);
    },
    afterShopifyRead: async ({ productId }) => {
      const hold = this.holds.get(productId);
      if (hold) {
        this.holds.delete(productId);
        hold.reached();
        await hold.release;
      }
      if (this.slowMs > 0) await new Promise((resolve) => setTimeout(resolve, this.slowMs));
    },
  };

  /** Holds the product's next run right after it read Shopify; resolves once it is held. */
  hold(productId: string): { reached: Promise<void>; release: () => void } {
    let release = () => {};
    let reached = () => {};
    const reachedPromise = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const releasePromise = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.holds.set(productId, { reached, release: releasePromise });
    return { reached: reachedPromise, release };
  }
}
