import type { JobsOptions, Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import type { CatalogClients } from '../../clients/catalog/catalog-clients.service.js';
import type { CatalogSettings, EnrichmentSettings } from '../../platform/config/settings.js';
import type { EnrichmentPollPayload } from '../../platform/queues/job-payloads.js';
import type { SkuMapRepository } from '../../product-sync/sku-map/sku-map.repository.js';
import type { ShopPollCounts } from '../store/enrichment-poll-run.entity.js';
import type { EnrichmentPollRuns } from '../store/enrichment-poll-runs.repository.js';
import { dutyWaitMs, EARLY_POLL_DUTY, earlyPollPlan } from './early-poll-plan.js';
import { EarlyPolls } from './early-polls.service.js';
import { emptyCounts } from './enrichment-poller.service.js';

const NORMAL_MS = 60_000;
const ACTIVE_MS = 5_000;
const shop = 'demo.myshopify.com';

interface World {
  watched: number;
  appliedRecently: boolean;
  callsPerPoll: number;
  ratePerSecond: number;
  share: number;
  /** The last early poll any replica finished (its run), or none. */
  lastEarly: { startedAt: Date; finishedAt: Date } | null;
}

/**
 * `EarlyPolls` against a queue that keeps one early poll at a time (its deduplication id), on a
 * moved clock. `minute` plays a minute of polling: the scheduled poll at 0, then each early poll
 * when due, each asking for the next; it counts the polls. Counts only, never durations.
 */
function world(options: Partial<World> = {}) {
  const w: World = {
    watched: 0,
    appliedRecently: false,
    callsPerPoll: 3,
    ratePerSecond: 20,
    share: 0.1,
    lastEarly: null,
    ...options,
  };
  const clock = new ManualClock();
  const adds: Array<{ data: EnrichmentPollPayload; opts: JobsOptions }> = [];
  let pending: { dueAt: number; data: EnrichmentPollPayload } | null = null;
  const queue = {
    async add(_name: string, data: EnrichmentPollPayload, opts: JobsOptions) {
      adds.push({ data, opts });
      pending ??= { dueAt: clock.now() + (opts.delay ?? 0), data };
    },
    async getDeduplicationJobId() {
      return pending === null ? null : 'poll-early-1';
    },
    async getJob() {
      const held = pending;
      return (
        held && {
          data: held.data,
          isDelayed: async () => true,
          updateData: async (data: EnrichmentPollPayload) => {
            held.data = data;
          },
        }
      );
    },
  };
  const early = new EarlyPolls(
    queue as unknown as Queue<EnrichmentPollPayload>,
    {
      pollIntervalMs: NORMAL_MS,
      activePollIntervalMs: ACTIVE_MS,
      activeWindowMs: 600_000,
      pollBudgetShare: w.share,
    } as EnrichmentSettings,
    { ratePerSecond: w.ratePerSecond } as CatalogSettings,
    { forShop: () => ({ id: 'account' }) } as unknown as CatalogClients,
    {
      appliedSince: async (shops: readonly string[]) => new Set(w.appliedRecently ? shops : []),
    } as unknown as SkuMapRepository,
    { lastEarly: async () => w.lastEarly } as unknown as EnrichmentPollRuns,
    clock,
  );
  const poll = async (polled = shop, tookMs = 0) => {
    const counts: ShopPollCounts = {
      ...emptyCounts(),
      lagSeconds: null,
      watched: w.watched,
      calls: w.callsPerPoll,
    };
    return early.after({ shops: { [polled]: counts } }, tookMs);
  };
  let origin = clock.now();
  /** The scheduled poll at the minute's start (an early poll due then is the same poll), then each early one. */
  const minute = async () => {
    const end = origin + NORMAL_MS;
    await clock.advance(origin - clock.now());
    if (pending !== null && pending.dueAt <= origin) pending = null;
    let polls = 1;
    await poll();
    while (pending !== null && pending.dueAt < end) {
      await clock.advance(pending.dueAt - clock.now());
      pending = null;
      polls++;
      await poll();
    }
    origin = end;
    return polls;
  };
  return { w, clock, adds, minute, poll, pending: () => pending };
}

describe('EarlyPolls: adaptive enrichment polling', () => {
  it('polls at the short interval while a record is on the review watchlist', async () => {
    const t = world({ watched: 1 });
    // The scheduled poll, then one every 5 s: 12 in the minute instead of 1.
    expect(await t.minute()).toBe(NORMAL_MS / ACTIVE_MS);
    expect(t.adds.every((add) => add.opts.delay === ACTIVE_MS)).toBe(true);
    expect(t.adds[0]?.data).toEqual({ trigger: 'early', shops: [shop] });
    expect(t.adds[0]?.opts.deduplication).toEqual({ id: 'enrichment-poll:early', ttl: ACTIVE_MS });
  });

  it('polls at the short interval while a record synced recently waits for its enrichment', async () => {
    const t = world({ appliedRecently: true });
    expect(await t.minute()).toBe(NORMAL_MS / ACTIVE_MS);
  });

  it('backs off to the normal interval when nothing waits', async () => {
    const t = world();
    expect(await t.minute()).toBe(1);
    expect(t.adds).toEqual([]);
    // Records come to wait: the next scheduled poll starts the short pace, and it stops with them.
    t.w.watched = 2;
    expect(await t.minute()).toBe(NORMAL_MS / ACTIVE_MS);
    t.w.watched = 0;
    expect(await t.minute()).toBe(1);
  });

  it("adds a later tick's waiting shops to the early poll that waits, rather than dropping them", async () => {
    // The scheduled poll is spread: one tick polls shop a, the next shop b, both with records waiting.
    const t = world({ watched: 1 });
    await t.poll('a.myshopify.com');
    await t.poll('b.myshopify.com');
    await t.poll('a.myshopify.com');
    expect(t.adds).toHaveLength(1);
    expect(t.pending()?.data).toEqual({ trigger: 'early', shops: ['a.myshopify.com', 'b.myshopify.com'] });
  });

  it('rests after an early poll by its own duration, whatever the quick tick that plans the next', async () => {
    // The early poll of every waiting shop took 3 s and ended 1 s ago (on this replica or another):
    // a scheduled tick of one shop (0.1 s) plans the next early poll 9 x 3 s after that end.
    const t = world({ watched: 1 });
    const now = t.clock.now();
    t.w.lastEarly = { startedAt: new Date(now - 4_000), finishedAt: new Date(now - 1_000) };
    expect((await t.poll(shop, 100))?.delayMs).toBe(9 * 3_000 - 1_000);
    expect(t.adds[0]?.opts.delay).toBe(26_000);
  });

  it('rests after the poll that just ended when it was the longer', async () => {
    const t = world({ watched: 1 });
    const now = t.clock.now();
    t.w.lastEarly = { startedAt: new Date(now - 60_000), finishedAt: new Date(now - 59_900) };
    // The last early poll's rest is over; this poll of 2 s asks 18 s.
    expect((await t.poll(shop, 2_000))?.delayMs).toBe(18_000);
  });

  it("skips early polls that would spend more than the poll's share of the catalog budget", async () => {
    // 20 calls a poll against 10% of 4 calls/s: the scheduled poll alone spends 0.33 of 0.4.
    const t = world({ watched: 1, callsPerPoll: 20, ratePerSecond: 4 });
    expect(await t.minute()).toBe(1);
    expect(t.adds).toEqual([]);
  });

  it('puts early polls off so that the polls stay within the share', async () => {
    // 3 calls a poll, 10% of 4 calls/s: 0.4 - 3/60 = 0.35 calls/s left, one poll per 8.6 s.
    const t = world({ watched: 1, callsPerPoll: 3, ratePerSecond: 4 });
    const polls = await t.minute();
    expect(t.adds[0]?.opts.delay).toBe(Math.ceil((3 / 0.35) * 1000));
    expect(polls).toBe(1 + Math.floor((NORMAL_MS - 1) / Math.ceil((3 / 0.35) * 1000)));
    // Calls per second spent by the minute's polls: within 10% of the budget.
    expect((polls * 3) / 60).toBeLessThanOrEqual(0.1 * 4);
  });
});

describe('earlyPollPlan', () => {
  const limits = { activeMs: ACTIVE_MS, normalMs: NORMAL_MS, ratePerSecond: 20, share: 0.1 };

  it('chooses only the shops with records waiting, one account at a time', () => {
    expect(
      earlyPollPlan(
        [
          { shop: 'a', account: 'x', calls: 3, waiting: true },
          { shop: 'b', account: 'x', calls: 3, waiting: false },
          { shop: 'c', account: 'y', calls: 500, waiting: true },
        ],
        limits,
        0,
      ),
    ).toEqual({ delayMs: ACTIVE_MS, shops: ['a'] });
  });

  it('waits after a long poll so that early polls keep the worker busy at most a tenth of the time', () => {
    const shops = [{ shop: 'a', account: 'x', calls: 1, waiting: true }];
    // A quick poll (one shop's): the short interval, as before.
    expect(earlyPollPlan(shops, limits, dutyWaitMs(400))?.delayMs).toBe(ACTIVE_MS);
    // A poll of 2 s (many shops waiting): the next comes 18 s later, the worker polls 2 s of 20.
    expect(dutyWaitMs(2_000)).toBe(9 * 2_000);
    expect(earlyPollPlan(shops, limits, dutyWaitMs(2_000))?.delayMs).toBe(9 * 2_000);
    expect(EARLY_POLL_DUTY).toBe(0.1);
    // A poll so long that the schedule comes first: no early poll.
    expect(earlyPollPlan(shops, limits, dutyWaitMs(7_000))).toBeNull();
  });

  it('is off when the short interval is not shorter than the normal one', () => {
    const shops = [{ shop: 'a', account: 'x', calls: 1, waiting: true }];
    expect(earlyPollPlan(shops, { ...limits, activeMs: NORMAL_MS }, 0)).toBeNull();
  });
});
