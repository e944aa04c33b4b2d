import { Injectable, Logger, Optional } from '@nestjs/common';
import { ClientErrorCode } from '#lib/catalog-client';
import { Clock } from '#lib/clock';
import { CatalogClients } from '../../clients/catalog/catalog-clients.service.js';
import { CatalogGate } from '../../clients/catalog/catalog-gate.service.js';
import type { ResolvedWriteBackEntry } from '../../mapping/index.js';
import { ShopMappings } from '../../mapping/shop-mappings.service.js';
import { ConcurrencyLimit } from '../../platform/boot/concurrency-limit.js';
import { EnrichmentSettings } from '../../platform/config/settings.js';
import { Observations } from '../../platform/reporting/observations.service.js';
import { SkuMapRepository } from '../../product-sync/sku-map/sku-map.repository.js';
import { Shops } from '../../shops/shops.js';
import { PushEnqueuer } from '../push/push-enqueuer.service.js';
import { PushHistory } from '../push/push-history.service.js';
import { POLLED_CHECKPOINT } from '../store/enrichment-checkpoint.entity.js';
import { EnrichmentOutbox } from '../store/enrichment-outbox.repository.js';
import type { PollCounts, PollRunCounts, ShopPollCounts } from '../store/enrichment-poll-run.entity.js';
import { trimRecord } from '../store/record-snapshot.js';
import { PollChunks } from './poll-chunks.js';
import type { PollField, SearchProducts } from './poll-finished.js';
import { recheckWatchlist, WATCHLIST_CHUNK, watchlistTurn } from './review-watchlist.js';
import { rewalkMapped } from './rewalk-mapped.js';
import { ShopPollFailed } from './shop-poll-failed.js';
import { ShopPollLock } from './shop-poll-lock.service.js';
import { type WalkCheckpoints, type WalkCutShort, walkChanges } from './walk-changes.js';

/**
 * The walked fields: finished enrichments, and `updatedAt` as the fast path for approvals; one
 * walk pages through each changed record once (`walkChanges`).
 */
const FIELDS: readonly PollField[] = ['dataEnrichment.completedAt', 'updatedAt'];
/** The checkpoint row holding when the watchlist was last re-checked. */
const WATCHLIST = 'watchlist';
/** The checkpoint row holding where the next watchlist turn starts (`watchlistTurn`). */
const WATCHLIST_OFFSET = 'watchlist:offset';
/** The checkpoint row holding when every mapped record was last read again (`rewalkMapped`). */
const REWALK = 'rewalk';
/** The checkpoint row of a walk cut short at `maxCalls` (its checkpoint then; null: it completed). */
const resumeRow = (field: PollField) => `${field}:resume`;

/**
 * Shops one poll job polls at a time. Each shop's poll is a few catalog searches of its own
 * account plus its writes (100-150 ms against the sandbox): one at a time, a poll of 200 shops
 * that all have records waiting took 30 s, and the spread schedule's ticks waited behind it. Two,
 * not more: 4 at a time took CPU and commits from the syncs (bench `tenants`, bench/HISTORY.md).
 */
const SHOPS_AT_ONCE = 2;

/** Zero counts, to add shops' counts to. */
export function emptyCounts(): PollCounts {
  return { found: 0, unmapped: 0, changed: 0, products: 0, rechecked: 0, agedOut: 0, watched: 0, calls: 0 };
}

/**
 * One poll of every shop with write-back entries: finds finished enrichments and approvals
 * (keyset walks of `updatedAt` and `completedAt` from the stored checkpoints, with an overlap
 * window, splitting the records between them so each is paged through once: `walkChanges`; the
 * review watchlist at every poll by default, a bounded turn of it at a time: `watchlistTurn`;
 * every mapped record again on the re-walk's cadence, for reviews changed after the fact:
 * `rewalkMapped`), keeps the records the connector mapped, and commits each page's new push
 * work as it is read, with the records each product's push needs (`RecordSnapshot`: the push does
 * not search again), and the new checkpoints after the last page (`PollChunks`). Then it enqueues
 * a push job per product with pending work. Shops are polled `SHOPS_AT_ONCE` at a time, each under a lock shared by every
 * replica, so no two polls of a shop ever start from the same checkpoint. A shop whose catalog
 * work waits (`CatalogGate`: its account's breaker open, no catalog key yet) is held, not polled:
 * the poll names it with the cause (`held`), its checkpoints stay, and nothing fails; a breaker
 * that opens half-way holds it the same (the pages read so far are committed). An operator's
 * pause stops the shop's syncs, not its write-back: it is polled.
 */
@Injectable()
export class EnrichmentPoller {
  private readonly logger = new Logger('EnrichmentPoller');

  constructor(
    private readonly outbox: EnrichmentOutbox,
    private readonly map: SkuMapRepository,
    private readonly mappings: ShopMappings,
    private readonly clients: CatalogClients,
    private readonly lock: ShopPollLock,
    private readonly pushes: PushEnqueuer,
    private readonly clock: Clock,
    private readonly settings: EnrichmentSettings,
    private readonly shops: Shops,
    private readonly history: PushHistory,
    private readonly gate: CatalogGate,
    @Optional() private readonly observations?: Observations,
  ) {}

  /**
   * Polls every shop (an early poll: `only` those); resolves to the summed counts, each shop's,
   * and the shops held (`held`: why each waits).
   */
  async poll(pollId: string, only?: readonly string[]): Promise<PollRunCounts> {
    const total = emptyCounts();
    const shops: Record<string, ShopPollCounts> = {};
    const held: Record<string, string> = {};
    const failed: unknown[] = [];
    const limit = new ConcurrencyLimit(SHOPS_AT_ONCE);
    const pollOne = async (domain: string, entries: readonly ResolvedWriteBackEntry[]) => {
      const waits = this.waitsFor(domain);
      if (waits !== null) {
        held[domain] = waits;
        return;
      }
      try {
        const counts = await this.lock.withShop(domain, () => this.pollShop(domain, pollId, entries));
        for (const key of Object.keys(total) as Array<keyof PollCounts>) total[key] += counts[key];
        shops[domain] = counts;
        if (counts.unmapped > 0)
          this.logger.debug(`${domain}: ${counts.unmapped} record(s) not created by the connector ignored`);
      } catch (error) {
        // The breaker opened half-way: the shop waits like one held from the start.
        const waits = this.waitsFor(domain, error);
        if (waits !== null) {
          held[domain] = waits;
          return;
        }
        // One shop's catalog being down does not keep the other shops' content from their stores.
        this.logger.warn(`${domain}: enrichment poll failed: ${(error as Error).message}`);
        failed.push(error instanceof ShopPollFailed ? error : new ShopPollFailed(domain, error));
      }
    };
    const polls: Array<Promise<void>> = [];
    for (const shop of this.shops.all) {
      if (only !== undefined && !only.includes(shop.domain)) continue;
      const entries = this.mappings.mapping(shop.domain)?.writeBack ?? [];
      if (entries.length === 0) continue;
      polls.push(limit.run(() => pollOne(shop.domain, entries)));
    }
    await Promise.all(polls);
    // The first failure decides what the job does (retried, delayed for a paused key, recorded
    // once per shop and cause: `ShopPollFailed`); the shops polled resolve their failures.
    const first = failed[0];
    if (first instanceof ShopPollFailed) first.polled = Object.keys(shops);
    if (failed.length > 0) throw first;
    for (const [shop, why] of Object.entries(held))
      this.logger.log(`${shop}: enrichment poll waits (${why}); its checkpoints stay for the next poll`);
    return { ...total, shops, ...(Object.keys(held).length > 0 ? { held } : {}) };
  }

  /**
   * Why the shop's poll waits now (its account's breaker open, no catalog key: the gate's
   * reason), or after `error` (a call refused by a breaker that opened half-way); null: it goes.
   */
  private waitsFor(shop: string, error?: unknown): string | null {
    const pause = this.gate.pauseState(shop);
    if (pause.paused && pause.by !== 'operator') return pause.reason ?? 'its catalog work waits';
    if ((error as { code?: unknown } | undefined)?.code === ClientErrorCode.CIRCUIT_OPEN)
      return (error as Error).message;
    return null;
  }

  private async pollShop(
    shop: string,
    pollId: string,
    entries: readonly ResolvedWriteBackEntry[],
  ): Promise<ShopPollCounts> {
    const { overlapMs, maxCallsPerPoll, watchlistIntervalMs, watchlistMaxAgeMs, rewalkIntervalMs } =
      this.settings;
    const attributes = [...new Set(entries.map((e) => e.attribute))];
    const { client } = this.clients.forShop(shop);
    // The poll reads only the write-back attributes of a record (its hash, the watchlist, the
    // snapshots): each page keeps only those, and is let go once committed (`PollChunks`).
    const kept = new Set(attributes);
    const trimmed =
      (call: SearchProducts): SearchProducts =>
      async (body) => {
        const page = await call(body);
        return { ...page, products: page.products.map((record) => trimRecord(record, kept)) };
      };
    const search = trimmed((body) => client.searchProducts(body));
    const stored = await this.outbox.checkpoints(shop);
    const counts: ShopPollCounts = { ...emptyCounts(), lagSeconds: null };
    const readAt = this.clock.now();
    // Watched records past their age leave the watchlist, whatever a page holds for them.
    const lastRecheck = stored.get(WATCHLIST) ?? null;
    const recheckDue = lastRecheck === null || readAt - lastRecheck >= watchlistIntervalMs;
    const leaving = new Set(
      recheckDue ? await this.outbox.agedOut(shop, new Date(readAt - watchlistMaxAgeMs)) : [],
    );
    counts.agedOut = leaving.size;
    // Each page is taken through the poll and committed as it is read (`PollChunks`).
    const chunks = new PollChunks(
      { shop, pollId, attributes, readAt, search, leaving },
      { outbox: this.outbox, map: this.map, history: this.history },
    );
    const walk = await walkChanges(search, {
      checkpoints: Object.fromEntries(FIELDS.map((f) => [f, stored.get(f) ?? null])) as WalkCheckpoints,
      // A walk cut short resumes where it stopped (its resume row still names its checkpoint).
      resume: Object.fromEntries(
        FIELDS.map((f) => [f, stored.get(f) != null && stored.get(resumeRow(f)) === stored.get(f)]),
      ) as WalkCutShort,
      overlapMs,
      maxCalls: maxCallsPerPoll,
      onPage: (page) => chunks.take(page),
    });
    counts.calls += walk.calls;
    const checkpoints: Record<string, number | null> = { ...walk.checkpoints };
    for (const f of FIELDS) checkpoints[resumeRow(f)] = walk.cutShort[f] ? walk.checkpoints[f] : null;

    const now = this.clock.now();
    const gone = new Set(leaving);
    if (recheckDue) {
      const watched = (await this.outbox.watchlist(shop))
        .map((w) => w.skuId)
        .filter((skuId) => !leaving.has(skuId) && !chunks.read.has(skuId));
      const turn = watchlistTurn(watched, stored.get(WATCHLIST_OFFSET) ?? 0, maxCallsPerPoll);
      checkpoints[WATCHLIST_OFFSET] = turn.nextOffset;
      for (let i = 0; i < turn.due.length; i += WATCHLIST_CHUNK) {
        const recheck = await recheckWatchlist(search, turn.due.slice(i, i + WATCHLIST_CHUNK));
        counts.calls += recheck.calls;
        await chunks.take(recheck.records);
        for (const skuId of recheck.missing) gone.add(skuId);
      }
      counts.rechecked = turn.due.length;
      checkpoints[WATCHLIST] = now;
    }
    // Approved content stays under watch: every mapped record is read again on its own cadence
    // (a review changed later moves no walked field). The first poll read everything already.
    const lastRewalk = stored.get(REWALK) ?? null;
    if (stored.get('updatedAt') == null) checkpoints[REWALK] = now;
    else if (lastRewalk === null || now - lastRewalk >= rewalkIntervalMs) {
      const bulk = trimmed((body) => client.searchProducts(body, { priority: 'bulk' }));
      const rewalk = await rewalkMapped(
        bulk,
        (after, limit) => this.map.liveSkuIdsAfter(shop, after, limit),
        (page) => chunks.take(page.filter((record) => !chunks.read.has(record.skuId))),
      );
      counts.calls += rewalk.calls;
      checkpoints[REWALK] = now;
    }

    counts.calls += chunks.calls;
    counts.found = chunks.found;
    counts.unmapped = chunks.unmapped;
    // The checkpoints last, with what leaves the watchlist: every page's work is committed.
    checkpoints[POLLED_CHECKPOINT] = now;
    await this.outbox.commit({ shop, pollId, checkpoints, found: [], watch: [], unwatch: [...gone] });
    const completed = checkpoints['dataEnrichment.completedAt'] ?? null;
    if (completed !== null) {
      counts.lagSeconds = Math.max(0, (now - completed) / 1000);
      this.observations?.pollLag({ shop, seconds: counts.lagSeconds });
    }
    counts.changed = chunks.changed;
    counts.products = chunks.products;
    counts.watched = (await this.outbox.watchlist(shop)).length;
    // Every product with pending work: this poll's, and any left by a crash before an enqueue.
    const pending = await this.outbox.pendingProducts(shop);
    await this.pushes.enqueueMany(pending.map((productId) => ({ shop, productId, reason: 'poll' as const })));
    return counts;
  }
}
