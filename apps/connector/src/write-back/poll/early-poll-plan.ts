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
 * The share of the poll worker's time early polls may take: after an early poll that took T, the
 * next one waits at least T × (1 - share) / share (9T, `dutyWaitMs`), and so does any poll after
 * one that took T. A poll's work grows with the shops whose records wait (all of them after a
 * migration's first resyncs: 199 in bench `tenants`, each polled every 5 s took the CPU the syncs
 * needed; at a quarter the big shop's sync still ran at 0.92 of its budget, at a tenth 0.96, the
 * naive peer's rate); few shops poll at the short interval as before (one shop's poll of 0.1-0.5 s
 * allows the 5 s).
 */
export const EARLY_POLL_DUTY = 0.1;

/** Why: the rest that follows a poll of `tookMs` so that polls keep to `EARLY_POLL_DUTY`. */
export function dutyWaitMs(tookMs: number): number {
  return Math.ceil((Math.max(0, tookMs) * (1 - EARLY_POLL_DUTY)) / EARLY_POLL_DUTY);
}

/**
 * Why: when the next poll comes early, and for which shops. A shop with records waiting is polled
 * again after `activeMs`, unless its account's polls would then spend more than `share` of the
 * account's budget: the early polls (the calls of the account's waiting shops once per interval)
 * plus the scheduled one (the same calls once per `normalMs`) must stay within it, so the interval
 * grows to `calls / (share x rate - calls / normal)`. An account whose interval would reach the
 * scheduled one (or whose scheduled poll alone spends the share) gets no early poll: the schedule
 * polls it. One early poll serves every shop chosen, after the longest of their intervals, and
 * not before `minDelayMs` (the duty bound's rest, `dutyWaitMs`). Null: no early poll.
 */
export function earlyPollPlan(
  shops: readonly PolledShop[],
  limits: EarlyPollLimits,
  minDelayMs: number,
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
  if (chosen.length === 0) return null;
  delayMs = Math.max(delayMs, minDelayMs);
  return delayMs >= limits.normalMs ? null : { delayMs, shops: chosen };
}
