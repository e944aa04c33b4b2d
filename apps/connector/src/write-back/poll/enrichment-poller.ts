import { Injectable, Logger, Optional } from '@nestjs/common';
import type { ProductRecord } from '#lib/catalog-contract';
import { Clock } from '#lib/clock';
import { CatalogClients } from '../../clients/catalog/catalog-clients.js';
import type { ResolvedWriteBackEntry } from '../../mapping/index.js';
import { ShopMappings } from '../../mapping/shop-mappings.js';
import { EnrichmentSettings } from '../../platform/config/settings.js';
import { Observations } from '../../platform/reporting/observations.js';
import { SkuMapRepository } from '../../product-sync/sku-map/sku-map.repository.js';
import { Shops } from '../../shops/shops.js';
import { PushEnqueuer } from '../push/push-enqueuer.js';
import { PushHistory } from '../push/push-history.js';
import { EnrichmentOutbox, type FoundRecord } from '../store/enrichment-outbox.repository.js';
import type { PollCounts, PollRunCounts, ShopPollCounts } from '../store/enrichment-poll-run.entity.js';
import { trimRecord } from '../store/record-snapshot.js';
import type { PollField, SearchProducts } from './poll-finished.js';
import { readProductSnapshots } from './product-snapshots.js';
import { awaitingReview, recheckWatchlist, recordContentHash, watchlistTurn } from './review-watchlist.js';
import { rewalkMapped } from './rewalk-mapped.js';
import { ShopPollFailed } from './shop-poll-failed.js';
import { ShopPollLock } from './shop-poll-lock.js';
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
 * `rewalkMapped`), keeps the records the connector mapped, and commits
 * the new push work, with the records each product's push needs (`RecordSnapshot`: the push does
 * not search again), and the new checkpoints in one transaction. Then it enqueues a push job per
 * product with pending work. Shops are polled one at a time under a lock shared by every
 * replica, so no two polls of a shop ever start from the same checkpoint.
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
    @Optional() private readonly observations?: Observations,
  ) {}

  /** Polls every shop; resolves to the summed counts and each shop's. */
  async poll(pollId: string): Promise<PollRunCounts> {
    const total = emptyCounts();
    const shops: Record<string, ShopPollCounts> = {};
    const failed: unknown[] = [];
    for (const shop of this.shops.all) {
      const entries = this.mappings.mapping(shop.domain)?.writeBack ?? [];
      if (entries.length === 0) continue;
      try {
        const counts = await this.lock.withShop(shop.domain, () =>
          this.pollShop(shop.domain, pollId, entries),
        );
        for (const key of Object.keys(total) as Array<keyof PollCounts>) total[key] += counts[key];
        shops[shop.domain] = counts;
        if (counts.unmapped > 0)
          this.logger.debug(
            `${shop.domain}: ${counts.unmapped} record(s) not created by the connector ignored`,
          );
      } catch (error) {
        // One shop's catalog being down does not keep the other shops' content from their stores.
        this.logger.warn(`${shop.domain}: enrichment poll failed: ${(error as Error).message}`);
        failed.push(error instanceof ShopPollFailed ? error : new ShopPollFailed(shop.domain, error));
      }
    }
    // The first failure decides what the job does (retried, delayed for a paused key, recorded
    // once per shop and cause: `ShopPollFailed`).
    if (failed.length > 0) throw failed[0];
    return { ...total, shops };
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
    // snapshots): each page keeps only those, so a walk of 20,000 changed records (a big resync's
    // creates) holds a few fields of each, not whole records, until its commit.
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
    const walk = await walkChanges(search, {
      checkpoints: Object.fromEntries(FIELDS.map((f) => [f, stored.get(f) ?? null])) as WalkCheckpoints,
      // A walk cut short resumes where it stopped (its resume row still names its checkpoint).
      resume: Object.fromEntries(
        FIELDS.map((f) => [f, stored.get(f) != null && stored.get(resumeRow(f)) === stored.get(f)]),
      ) as WalkCutShort,
      overlapMs,
      maxCalls: maxCallsPerPoll,
    });
    counts.calls += walk.calls;
    const records = walk.records;
    const checkpoints: Record<string, number | null> = { ...walk.checkpoints };
    for (const f of FIELDS) checkpoints[resumeRow(f)] = walk.cutShort[f] ? walk.checkpoints[f] : null;

    const now = this.clock.now();
    const lastRecheck = stored.get(WATCHLIST) ?? null;
    const gone = new Set<string>();
    if (lastRecheck === null || now - lastRecheck >= watchlistIntervalMs) {
      const agedOut = await this.outbox.agedOut(shop, new Date(now - watchlistMaxAgeMs));
      for (const skuId of agedOut) gone.add(skuId);
      counts.agedOut = agedOut.length;
      const watched = (await this.outbox.watchlist(shop))
        .map((w) => w.skuId)
        .filter((skuId) => !gone.has(skuId) && !records.has(skuId));
      const turn = watchlistTurn(watched, stored.get(WATCHLIST_OFFSET) ?? 0, maxCallsPerPoll);
      const due = turn.due;
      checkpoints[WATCHLIST_OFFSET] = turn.nextOffset;
      const recheck = await recheckWatchlist(search, due);
      counts.calls += recheck.calls;
      counts.rechecked = due.length;
      for (const record of recheck.records) records.set(record.skuId, record);
      for (const skuId of recheck.missing) gone.add(skuId);
      checkpoints[WATCHLIST] = now;
    }
    // Approved content stays under watch: every mapped record is read again on its own cadence
    // (a review changed later moves no walked field). The first poll read everything already.
    const lastRewalk = stored.get(REWALK) ?? null;
    if (stored.get('updatedAt') == null) checkpoints[REWALK] = now;
    else if (lastRewalk === null || now - lastRewalk >= rewalkIntervalMs) {
      const bulk = trimmed((body) => client.searchProducts(body, { priority: 'bulk' }));
      const rewalk = await rewalkMapped(bulk, (after, limit) => this.map.liveSkuIdsAfter(shop, after, limit));
      counts.calls += rewalk.calls;
      for (const record of rewalk.records) if (!records.has(record.skuId)) records.set(record.skuId, record);
      checkpoints[REWALK] = now;
    }

    counts.found = records.size;
    const products = await this.map.productsOfSkuIds(shop, [...records.keys()]);
    const found: FoundRecord[] = [];
    const watch: Array<{ skuId: string; productId: string; attributes: string[] }> = [];
    for (const record of records.values()) {
      const productId = products.get(record.skuId);
      if (productId === undefined) {
        counts.unmapped += 1;
        continue;
      }
      found.push({ skuId: record.skuId, productId, contentHash: recordContentHash(record, attributes) });
      const pending = awaitingReview(record, attributes);
      if (pending.length > 0 && !gone.has(record.skuId))
        watch.push({ skuId: record.skuId, productId, attributes: pending });
      else gone.add(record.skuId);
    }
    // The records each product given work has, for its push: it need not search again.
    const unseen = await this.outbox.unseen(shop, found);
    // Only products a push could change get work (`PushHistory`): a resync's new records do not.
    const changed = new Map<string, ProductRecord[]>();
    for (const f of found) {
      const record = records.get(f.skuId);
      if (record === undefined || !unseen.has(f.skuId)) continue;
      const list = changed.get(f.productId);
      if (list) list.push(record);
      else changed.set(f.productId, [record]);
    }
    const changedProducts = [...changed].map(([productId, list]) => ({ productId, records: list }));
    const idle = await this.history.idle(shop, changedProducts, attributes);
    const given = [...changed.keys()].filter((productId) => !idle.has(productId));
    const read = await readProductSnapshots(search, {
      products: await this.map.skuIdsOfProducts(shop, given),
      read: records,
      attributes,
      at: readAt,
    });
    counts.calls += read.calls;
    const committed = await this.outbox.commit({
      shop,
      pollId,
      checkpoints,
      found,
      watch,
      unwatch: [...gone],
      snapshots: read.snapshots,
      idle,
    });
    const completed = checkpoints['dataEnrichment.completedAt'] ?? null;
    if (completed !== null) {
      counts.lagSeconds = Math.max(0, (now - completed) / 1000);
      this.observations?.pollLag({ shop, seconds: counts.lagSeconds });
    }
    counts.changed = committed.changed.length;
    counts.products = committed.products.length;
    counts.watched = (await this.outbox.watchlist(shop)).length;
    // Every product with pending work: this poll's, and any left by a crash before an enqueue.
    for (const productId of await this.outbox.pendingProducts(shop))
      await this.pushes.enqueue({ shop, productId, reason: 'poll' });
    return counts;
  }
}
