/** Products remembered at most: a storm over more products forgets the oldest (they lead again). */
const MAX_REMEMBERED = 100_000;

/**
 * When each product's last webhook delivery was added to the sync queue by this process, for the
 * sync's leading edge (`SyncEnqueuer`): a delivery for a product with no sync job in flight and no
 * delivery within the last debounce period syncs at once; the deliveries that follow within the
 * period make one trailing run (the restarting debounce of `syncProductJobOptions`).
 *
 * Counted from the last delivery, not from the last leading run: a product delivered without
 * pause then never leads again, and keeps one run per maximum wait (a leading run after each
 * trailing one would double a storm's runs).
 *
 * In memory, per process, on purpose: the question is asked for every delivery on the intake's
 * path, and the answer only decides a delay. With several replicas, a burst whose deliveries are
 * spread over them may lead once per replica (at most one extra run each); coalescing into the
 * one trailing run still holds, since every replica joins the same deduplicated job. Forgotten
 * at a restart, which leads once more. Bounded: entries older than the period are pruned as new
 * ones come, and at most `MAX_REMEMBERED` are kept.
 */
export class RecentDeliveries {
  /** Insertion-ordered by last delivery (re-inserted on each), so pruning walks the oldest first. */
  private readonly last = new Map<string, number>();

  constructor(private readonly periodMs: number) {}

  /** Was a delivery for `key` noted within the period before `now`? */
  isQuiet(key: string, now: number): boolean {
    const at = this.last.get(key);
    return at === undefined || now - at >= this.periodMs;
  }

  /** Notes a delivery for `key` at `now`, and forgets the ones older than the period. */
  note(key: string, now: number): void {
    this.last.delete(key);
    this.last.set(key, now);
    for (const [old, at] of this.last) {
      if (now - at < this.periodMs && this.last.size <= MAX_REMEMBERED) break;
      this.last.delete(old);
    }
  }

  /** Products remembered now (for tests). */
  get size(): number {
    return this.last.size;
  }
}
