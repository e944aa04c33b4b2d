/** One shop as the last poll left it. */
export interface PolledShop {
  shop: string;
  /** The catalog account it calls through (shops may share one, and its budget). */
  account: string;
  /** Catalog calls its last poll made: what its next one is expected to make. */
  calls: number;
  /** Records wait for enrichment or review (synced recently, or on the watchlist). */
  waiting: boolean;
}

/** What `earlyPollPlan` weighs the shops against. */
export interface EarlyPollLimits {
  /** The short interval while records wait. */
  activeMs: number;
  /** The scheduled poll's interval. */
  normalMs: number;
  /** Each account's catalog budget, calls per second. */
  ratePerSecond: number;
  /** The share of that budget the polls may spend. */
  share: number;
}

/**
 * Why: when the next poll comes early, and for which shops. A shop with records waiting is polled
 * again after `activeMs`, unless its account's polls would then spend more than `share` of the
 * account's budget: the early polls (the calls of the account's waiting shops once per interval)
 * plus the scheduled one (the same calls once per `normalMs`) must stay within it, so the interval
 * grows to `calls / (share x rate - calls / normal)`. An account whose interval would reach the
 * scheduled one (or whose scheduled poll alone spends the share) gets no early poll: the schedule
 * polls it. One early poll serves every shop chosen, after the longest of their intervals.
 * Null: no early poll.
 */
export function earlyPollPlan(
  shops: readonly PolledShop[],
  limits: EarlyPollLimits,
): { delayMs: number; shops: string[] } | null {
  if (limits.activeMs >= limits.normalMs) return null;
  const byAccount = new Map<string, PolledShop[]>();
  for (const shop of shops) {
    if (!shop.waiting) continue;
    byAccount.set(shop.account, [...(byAccount.get(shop.account) ?? []), shop]);
  }
  let delayMs = 0;
  const chosen: string[] = [];
  for (const waiting of byAccount.values()) {
    const calls = waiting.reduce((sum, shop) => sum + Math.max(shop.calls, 1), 0);
    const spare = limits.share * limits.ratePerSecond - calls / (limits.normalMs / 1000);
    if (spare <= 0) continue;
    const intervalMs = Math.max(limits.activeMs, Math.ceil((calls / spare) * 1000));
    if (intervalMs >= limits.normalMs) continue;
    delayMs = Math.max(delayMs, intervalMs);
    chosen.push(...waiting.map((shop) => shop.shop));
  }
  return chosen.length === 0 ? null : { delayMs, shops: chosen };
}
