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

/** One reserved call: the report its answer carried (and its refund: requested less actual cost), then its end (idempotent). */
export interface CostSlot {
  observe(status: ThrottleStatus | undefined, refund?: number): void | Promise<void>;
  release(): void;
}

/** What a shop's Admin client paces its calls with: this process's `CostPacer`, or the replicas' `SharedCostPacer`. */
export interface ShopCostPacer {
  reserve(cost: number): Promise<CostSlot>;
  observe(status: ThrottleStatus | undefined): void;
  waitFor(cost: number): number;
}

/**
 * Paces one shop's Admin GraphQL calls by the last `throttleStatus` Shopify reported: before a
 * call that may cost `cost` points, waits until the leaky bucket (refilled at `restoreRate` per
 * second since that report) holds them. Without a report yet, calls go at once. Shopify takes a
 * query's requested cost from the bucket when the query starts, so calls running at once
 * (workers sharing the shop's client) `reserve` theirs: a call goes only when the bucket holds
 * its cost on top of what every call still in flight asked for (a report may or may not count
 * a call in flight: requests overtake each other on the way, so the pacer assumes it does not),
 * and before the first report only one call is in flight. That keeps concurrent calls from
 * being answered `THROTTLED`, at the price of waiting for a call's answer now and then.
 */
export class CostPacer implements ShopCostPacer {
  private last: { status: ThrottleStatus; at: number } | null = null;
  /** Calls in flight: their sequence number and requested cost. */
  private readonly flights = new Map<number, number>();
  private sent = 0;
  /** The sequence number of the call whose answer carried the last report. */
  private reportedAfter = 0;

  constructor(private readonly clock: Clock) {}

  /** A report from a call that was not reserved: it counts every call sent so far. */
  observe(status: ThrottleStatus | undefined): void {
    this.observeFrom(this.sent, status);
  }

  /** Milliseconds to wait before a call of `cost` points (on top of the calls in flight). */
  waitFor(cost: number): number {
    if (this.last === null) return this.flights.size > 0 ? FIRST_REPORT_POLL_MS : 0;
    const { status, at } = this.last;
    if (status.restoreRate <= 0) return 0;
    const needed = Math.min(cost, status.maximumAvailable);
    const elapsed = Math.max(0, this.clock.now() - at) / 1000;
    const available =
      Math.min(status.maximumAvailable, status.currentlyAvailable + elapsed * status.restoreRate) -
      this.unreported();
    return available >= needed ? 0 : Math.ceil(((needed - available) / status.restoreRate) * 1000);
  }

  async pace(cost: number): Promise<void> {
    const wait = this.waitFor(cost);
    if (wait > 0) await this.clock.sleep(wait);
  }

  /** Waits until the bucket holds `cost` beside the calls in flight, then counts it among them until released. */
  async reserve(cost: number): Promise<CostSlot> {
    for (let wait = this.waitFor(cost); wait > 0; wait = this.waitFor(cost))
      await this.clock.sleep(Math.min(wait, RECHECK_MS));
    const seq = ++this.sent;
    this.flights.set(seq, cost);
    return {
      observe: (status) => this.observeFrom(seq, status),
      release: () => {
        this.flights.delete(seq);
      },
    };
  }

  /** A report carried by the answer to call `seq`: a staler one than the last is ignored. */
  private observeFrom(seq: number, status: ThrottleStatus | undefined): void {
    if (!status || seq < this.reportedAfter) return;
    this.last = { status, at: this.clock.now() };
    this.reportedAfter = seq;
  }

  /** Requested cost of the calls in flight. */
  private unreported(): number {
    let sum = 0;
    for (const cost of this.flights.values()) sum += cost;
    return sum;
  }
}
