/**
 * A queue's two lanes: `live` (a merchant's edit, an operator's or a replay's request: someone
 * waits for it) and `bulk` (a shop's worth of work: resync, reconciliation, scope, drift, go-live).
 * Each lane is a range of BullMQ priorities (`lanePriority`), every live one before every bulk one.
 */
export type Lane = 'live' | 'bulk';

/** Turns within a lane: beyond, a shop's requests share the last priority of its lane. */
const LANE_SPAN = 1_000_000;
/** The first priority of the bulk lane; BullMQ allows up to 2,097,152. */
const BULK_LANE_BASE = LANE_SPAN;

/**
 * Fairness across shops on one queue, as a BullMQ priority (docs/sync.md, "Fairness across
 * shops"): the lane's base plus the request's turn in its shop's line (`ShopLanes`). Both queue
 * backends run a lower priority first and, within one, the order of adding; 0 (a live request of
 * a quiet shop) is no priority at all, ahead of everything. Every live priority is below every
 * bulk one, so a shop's own edits still go before its bulk work.
 */
export function lanePriority(lane: Lane, turn: number): number {
  const within = Math.min(Math.max(0, Math.floor(turn)), LANE_SPAN - 1);
  return lane === 'bulk' ? BULK_LANE_BASE + within : within;
}

/** How far back a shop's requests count towards its next turn (`ShopLanes`). */
export const LANE_WINDOW_MS = 60_000;
/** The window in buckets: a request leaves the count between 50 and 60 s after it was made. */
const BUCKETS = 6;
const BUCKET_MS = LANE_WINDOW_MS / BUCKETS;
/** Shops' counters kept at most before the idle ones are pruned. */
const PRUNE_ABOVE = 1_000;

/** One shop's requests in one lane: counts per bucket, `counts[0]` the bucket of `newest`. */
interface Counter {
  newest: number;
  counts: number[];
}

/** One request to add, and the turn it got. */
export interface LaneTurn<T> {
  item: T;
  /** The shop's requests in the same lane within the window before this one (0: the shop was quiet). */
  turn: number;
}

/**
 * Why: the queues are shared by every shop, and BullMQ (open source) has no groups, so a shop's
 * backlog would run before every job queued after it. This gives each request a turn: how many
 * requests of the same shop and lane this process added within the last minute. The job's
 * priority is its lane's base plus its turn (`lanePriority`), and both backends run jobs by
 * priority, then in the order they were added: every shop's first request of the minute runs
 * before any shop's second, and so on (round-robin by position). A shop that queued 10,000 syncs
 * a moment ago gets turns 0..9,999; another shop's lone edit gets turn 0 and runs after at most
 * the one job of the big shop that had turn 0 (plus the jobs already running).
 *
 * The bound, per process: within any window a shop adds at most `k + 1` jobs with a turn of `k`
 * or less, and a job waits only behind jobs of a smaller or equal priority. So a request with turn
 * `k` waits behind at most `k + 1` jobs of each other shop per window of its wait, per replica
 * that enqueues, plus the jobs running when it was added.
 *
 * In memory and per process, like the leading edge's `RecentDeliveries`: the question is asked
 * for every add, the answer only orders the queue, and a restart forgets the counts (the jobs
 * already queued keep their priorities). Counted per request, deduplicated or not: a shop that
 * asks for the same product again and again moves back in the line as one that asks for many.
 */
export class ShopLanes {
  private readonly counters = new Map<string, Counter>();

  /**
   * Orders a batch round-robin by shop (each shop's requests in their order), so requests of equal
   * turns are added alternately, and gives each its turn, counting it.
   */
  take<T extends { shop: string }>(
    items: readonly T[],
    laneOf: (item: T) => Lane,
    now: number,
  ): LaneTurn<T>[] {
    const bucket = Math.floor(now / BUCKET_MS);
    return roundRobin(items).map((item) => {
      const counter = this.counter(`${laneOf(item)}\u0000${item.shop}`, bucket);
      const turn = counter.counts.reduce((sum, n) => sum + n, 0);
      counter.counts[0] = (counter.counts[0] ?? 0) + 1;
      return { item, turn };
    });
  }

  /** Shop-lane counters held now (for tests). */
  get size(): number {
    return this.counters.size;
  }

  private counter(key: string, bucket: number): Counter {
    if (this.counters.size > PRUNE_ABOVE) this.prune(bucket);
    const counter = this.counters.get(key) ?? { newest: bucket, counts: [0] };
    this.counters.set(key, counter);
    const gone = bucket - counter.newest;
    if (gone > 0) {
      const fresh = new Array<number>(Math.min(gone, BUCKETS)).fill(0);
      counter.counts = [...fresh, ...counter.counts].slice(0, BUCKETS);
      counter.newest = bucket;
    }
    return counter;
  }

  /** Forgets the counters with nothing left in the window. */
  private prune(bucket: number): void {
    for (const [key, counter] of this.counters) {
      if (bucket - counter.newest >= BUCKETS) this.counters.delete(key);
    }
  }
}

/** The items grouped by shop, then taken one per shop in turn (shops in order of first appearance). */
function roundRobin<T extends { shop: string }>(items: readonly T[]): T[] {
  const byShop = new Map<string, T[]>();
  for (const item of items) {
    const list = byShop.get(item.shop);
    if (list) list.push(item);
    else byShop.set(item.shop, [item]);
  }
  if (byShop.size <= 1) return [...items];
  const lists = [...byShop.values()];
  const ordered: T[] = [];
  for (let i = 0; ordered.length < items.length; i++) {
    for (const list of lists) {
      const item = list[i];
      if (item !== undefined) ordered.push(item);
    }
  }
  return ordered;
}
