/**
 * Why: what each shop costs in the background (its mapping check at boot and at each refresh, its
 * webhook subscriptions at boot, its dependency checks) would otherwise start for every shop at
 * once: 200 shops, 200 catalog checks and 200 Shopify calls in the same second, their memory and
 * sockets all held together. A limit runs at most `max` of them at a time (each feature its own,
 * `CONNECTOR_SHOP_CHECK_CONCURRENCY`), the others waiting their turn in order. A task run under a
 * limit never waits for another task of the same limit (it would wait for itself).
 */
export class ConcurrencyLimit {
  private active = 0;
  private readonly queue: Array<() => void> = [];

  constructor(readonly max: number) {}

  /** Runs `task` once fewer than `max` run; resolves or rejects as it does. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active < this.max) this.active += 1;
    // A slot is handed over by the task that ends (`active` stays as it is).
    else await new Promise<void>((resolve) => this.queue.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.queue.shift();
      if (next) next();
      else this.active -= 1;
    }
  }

  /** Tasks running now. */
  get running(): number {
    return this.active;
  }

  /** Tasks waiting for a slot. */
  get waiting(): number {
    return this.queue.length;
  }
}
