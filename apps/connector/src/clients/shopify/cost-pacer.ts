import type { Clock } from '#lib/clock';

/** Shopify's `extensions.cost.throttleStatus`. */
export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

/** How long a call waits, without a throttle status yet, for the call ahead of it to report one. */
const FIRST_REPORT_POLL_MS = 50;
/** A waiting reservation looks again at least this often: a report may have come meanwhile. */
const RECHECK_MS = 100;

/**
 * Paces one shop's Admin GraphQL calls by the last `throttleStatus` Shopify reported: before a
 * call that may cost `cost` points, waits until the leaky bucket (refilled at `restoreRate` per
 * second since that report) holds them. Without a report yet, calls go at once. Shopify takes a
 * query's requested cost from the bucket when the query starts, so calls running at once
 * (workers sharing the shop's client) `reserve` theirs: a call goes only when the bucket holds
 * its cost on top of what the calls sent since the last report asked for (the calls in flight
 * when a report comes had started: the report counts them), and before the first report only
 * one call is in flight. That keeps concurrent calls from being answered `THROTTLED`.
 */
export class CostPacer {
  private last: { status: ThrottleStatus; at: number } | null = null;
  /** Requested cost of the calls sent since the last report (it does not count them yet). */
  private reserved = 0;
  private inFlight = 0;
  /** Counts reports, so a release knows whether its call was sent before the last one. */
  private reports = 0;

  constructor(private readonly clock: Clock) {}

  observe(status: ThrottleStatus | undefined): void {
    if (!status) return;
    this.last = { status, at: this.clock.now() };
    this.reports++;
    this.reserved = 0;
  }

  /** Milliseconds to wait before a call of `cost` points (on top of the calls in flight). */
  waitFor(cost: number): number {
    if (this.last === null) return this.inFlight > 0 ? FIRST_REPORT_POLL_MS : 0;
    const { status, at } = this.last;
    if (status.restoreRate <= 0) return 0;
    const needed = Math.min(cost, status.maximumAvailable);
    const elapsed = Math.max(0, this.clock.now() - at) / 1000;
    const available =
      Math.min(status.maximumAvailable, status.currentlyAvailable + elapsed * status.restoreRate) -
      this.reserved;
    return available >= needed ? 0 : Math.ceil(((needed - available) / status.restoreRate) * 1000);
  }

  async pace(cost: number): Promise<void> {
    const wait = this.waitFor(cost);
    if (wait > 0) await this.clock.sleep(wait);
  }

  /**
   * Waits until the bucket holds `cost` beside the calls in flight, then counts it as theirs
   * until the returned release is called (once the call's answer was observed, or it failed).
   */
  async reserve(cost: number): Promise<() => void> {
    for (let wait = this.waitFor(cost); wait > 0; wait = this.waitFor(cost))
      await this.clock.sleep(Math.min(wait, RECHECK_MS));
    this.reserved += cost;
    this.inFlight++;
    const sentAfter = this.reports;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight--;
      // Sent before the last report: that report counted it already.
      if (this.reports === sentAfter) this.reserved -= cost;
    };
  }
}
