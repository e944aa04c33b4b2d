/** Shops remembered at most (each with at most `maxInPeriod` times). */
const MAX_SHOPS = 10_000;

/**
 * How fast each shop's webhook deliveries come, for the sync's leading edge (`SyncEnqueuer`): a
 * shop is calm when it had no delivery within `quietMs` and fewer than `maxInPeriod` within
 * `periodMs`. A merchant saving one product after another (a save every few hundred ms at most)
 * keeps the shop calm, so each save leads; a bulk edit or a storm (deliveries tens of ms apart)
 * does not, and a pause in the middle of one (a stalled sender, a busy machine) does not make it
 * calm either while the last period still holds its deliveries.
 *
 * In memory, per process, like `RecentDeliveries`: the answer only decides a delay.
 */
export class ShopPace {
  /**
   * The leading edge's pace: no delivery within a quarter of the debounce (250 ms by default)
   * and at most 3 within the debounce. A merchant saving product after product (a save every
   * few hundred ms, each its own product) has each save synced at once; a bulk edit or a storm
   * (deliveries tens of ms apart) leads once and trails, and a pause within it does not lead
   * again while its last second holds more. The whole debounce quiet (issue 44's first rule)
   * held every save of a merchant editing one product after another, a second apart or less,
   * for the trailing run.
   */
  static forDebounce(debounceMs: number): ShopPace {
    return new ShopPace(debounceMs, Math.round(debounceMs / 4), 4);
  }

  /** Per shop, its last deliveries' times, oldest first, at most `maxInPeriod`. */
  private readonly times = new Map<string, number[]>();

  constructor(
    readonly periodMs: number,
    readonly quietMs: number,
    readonly maxInPeriod: number,
  ) {}

  /** No delivery within `quietMs` before `now`, and fewer than `maxInPeriod` within `periodMs`. */
  isCalm(shop: string, now: number): boolean {
    const times = this.times.get(shop);
    if (times === undefined || times.length === 0) return true;
    if (now - (times.at(-1) as number) < this.quietMs) return false;
    return times.filter((at) => now - at < this.periodMs).length < this.maxInPeriod;
  }

  /** Notes a delivery for `shop` at `now`. */
  note(shop: string, now: number): void {
    const times = this.times.get(shop) ?? [];
    this.times.delete(shop);
    times.push(now);
    if (times.length > this.maxInPeriod) times.splice(0, times.length - this.maxInPeriod);
    this.times.set(shop, times);
    // Insertion-ordered by last delivery: the shop quiet longest goes first.
    for (const [old, list] of this.times) {
      if (this.times.size <= MAX_SHOPS && now - (list.at(-1) as number) < this.periodMs) break;
      this.times.delete(old);
    }
  }
}
