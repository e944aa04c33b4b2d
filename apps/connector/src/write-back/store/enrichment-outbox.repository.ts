import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, type Repository } from 'typeorm';
import { Clock } from '#lib/clock';
import { pruneInBatches } from '../../platform/reporting/retention-registry.service.js';
import { EnrichmentCheckpoint, POLLED_CHECKPOINT } from './enrichment-checkpoint.entity.js';
import { EnrichmentOutboxRow } from './enrichment-outbox.entity.js';
import { EnrichmentSeen } from './enrichment-seen.entity.js';
import type { RecordSnapshot } from './record-snapshot.js';
import { ReviewWatch } from './review-watch.entity.js';

/** A mapped record a poll found, with its content hash. */
export interface FoundRecord {
  skuId: string;
  /** The Shopify product the record belongs to (decimal string). */
  productId: string;
  contentHash: string;
}

/**
 * What one commit of a poll stores, in one transaction: a page's findings (`PollChunks`, no
 * checkpoints), or the poll's checkpoints after its last page.
 */
export interface PollCommit {
  shop: string;
  pollId: string | null;
  /** New checkpoints by field (`dataEnrichment.completedAt`, `updatedAt`, `watchlist`). */
  checkpoints: Readonly<Record<string, number | null>>;
  found: readonly FoundRecord[];
  /** Records with write-back attributes still awaiting review (kept or added). */
  watch: ReadonlyArray<{ skuId: string; productId: string; attributes: string[] }>;
  /** Records no longer awaiting review, gone from the catalog, or aged out. */
  unwatch: readonly string[];
  /** The records read for each product given work (`RecordSnapshot`), stored with its outbox row. */
  snapshots?: ReadonlyMap<string, RecordSnapshot>;
  /**
   * Products whose changed records give a push nothing to do (`PushHistory`): their records are
   * marked seen, and no work is added for them.
   */
  idle?: ReadonlySet<string>;
}

/** A product's newest pending work: the push marks the rows up to `id` done. */
export interface PendingWork {
  id: string;
  /** The records its poll read (null: work added outside a poll). */
  records: RecordSnapshot | null;
}

/** Outbox rows per INSERT: a row has six parameters, PostgreSQL takes 65,535 per statement. */
const INSERT_CHUNK = 1_000;

/**
 * The poll's tables: checkpoints, the content hashes seen, the outbox of push work and the
 * review watchlist. `commit` writes a page's findings (hashes, work, watchlist rows) together,
 * and the poll's new checkpoints after its last page: a crash loses at most the pages not yet
 * committed (found again next time, from the old checkpoints); records whose hash was seen
 * already give no work.
 */
@Injectable()
export class EnrichmentOutbox {
  constructor(
    @InjectRepository(EnrichmentOutboxRow) private readonly outbox: Repository<EnrichmentOutboxRow>,
    private readonly clock: Clock,
  ) {}

  /** `shop/redact`: deletes every row of the shop (`ShopDataRegistry`); resolves to how many went. */
  async purgeShop(shop: string): Promise<number> {
    const m = this.outbox.manager;
    let total = 0;
    for (const entity of [EnrichmentCheckpoint, EnrichmentSeen, EnrichmentOutboxRow, ReviewWatch]) {
      total += (await m.getRepository(entity).delete({ shop })).affected ?? 0;
    }
    return total;
  }

  /** The shop's checkpoints by field (epoch ms). */
  async checkpoints(shop: string): Promise<Map<string, number | null>> {
    const rows = await this.outbox.manager.getRepository(EnrichmentCheckpoint).findBy({ shop });
    return new Map(rows.map((r) => [r.field, r.checkpoint === null ? null : Number(r.checkpoint)]));
  }

  /** Stores one poll; resolves to the records whose hash was new and the products given work. */
  async commit(poll: PollCommit): Promise<{ changed: string[]; products: string[] }> {
    return this.outbox.manager.transaction(async (manager) => {
      const now = new Date(this.clock.now());
      const table = (entity: { name: string } & (new () => unknown)) =>
        manager.getRepository(entity).metadata.tablePath;
      // One statement for the page's hashes (a statement per record cost a resync's polls 3 round
      // trips per product); the records whose hash was new come back.
      const found = dedupe(poll.found);
      const fresh =
        found.length === 0
          ? new Set<string>()
          : new Set(
              (
                (await manager.query(
                  `INSERT INTO ${table(EnrichmentSeen)} AS s (shop, sku_id, content_hash, seen_at)
                   SELECT $1, f.sku_id, f.content_hash, $4
                     FROM unnest($2::text[], $3::text[]) AS f(sku_id, content_hash)
                   ON CONFLICT (shop, sku_id) DO UPDATE SET content_hash = EXCLUDED.content_hash, seen_at = EXCLUDED.seen_at
                     WHERE s.content_hash <> EXCLUDED.content_hash
                   RETURNING sku_id`,
                  [poll.shop, found.map((r) => r.skuId), found.map((r) => r.contentHash), now],
                )) as Array<{ sku_id: string }>
              ).map((r) => r.sku_id),
            );
      const changed = found.filter((r) => fresh.has(r.skuId));
      const products = [...new Set(changed.map((r) => r.productId))].filter((p) => !poll.idle?.has(p));
      for (let i = 0; i < products.length; i += INSERT_CHUNK) {
        await manager.getRepository(EnrichmentOutboxRow).insert(
          products.slice(i, i + INSERT_CHUNK).map((productId) => ({
            shop: poll.shop,
            shopifyProductId: productId,
            pollId: poll.pollId,
            foundAt: now,
            state: 'pending' as const,
            records: poll.snapshots?.get(productId) ?? null,
          })),
        );
      }
      const watch = [...new Map(poll.watch.map((w) => [w.skuId, w])).values()];
      if (watch.length > 0) {
        await manager.query(
          `INSERT INTO ${table(ReviewWatch)} AS w
             (shop, sku_id, shopify_product_id, attributes, added_at, last_checked_at)
           SELECT $1, v.sku_id, v.product_id::bigint, v.attributes, $5, $5
             FROM unnest($2::text[], $3::text[], $4::jsonb[]) AS v(sku_id, product_id, attributes)
           ON CONFLICT (shop, sku_id) DO UPDATE
             SET attributes = EXCLUDED.attributes, last_checked_at = EXCLUDED.last_checked_at,
                 shopify_product_id = EXCLUDED.shopify_product_id`,
          [
            poll.shop,
            watch.map((w) => w.skuId),
            watch.map((w) => w.productId),
            watch.map((w) => JSON.stringify(w.attributes)),
            now,
          ],
        );
      }
      if (poll.unwatch.length > 0) {
        await manager.query(
          `DELETE FROM ${table(ReviewWatch)} WHERE shop = $1 AND sku_id = ANY($2::text[])`,
          [poll.shop, [...poll.unwatch]],
        );
      }
      for (const [field, checkpoint] of Object.entries(poll.checkpoints)) {
        await manager.query(
          `INSERT INTO ${table(EnrichmentCheckpoint)} (shop, field, checkpoint, updated_at)
           VALUES ($1, $2, $3, $4)
           ON CONFLICT (shop, field) DO UPDATE SET checkpoint = EXCLUDED.checkpoint, updated_at = EXCLUDED.updated_at`,
          [poll.shop, field, checkpoint, now],
        );
      }
      return { changed: changed.map((r) => r.skuId), products };
    });
  }

  /**
   * Which of `found` `commit` would count as changed (hash not the one stored), read only: the
   * poll reads the other records of those products before it commits (`RecordSnapshot`).
   */
  async unseen(shop: string, found: readonly FoundRecord[]): Promise<Set<string>> {
    const records = dedupe(found);
    if (records.length === 0) return new Set();
    const rows: Array<{ sku_id: string }> = await this.outbox.query(
      `SELECT f.sku_id FROM unnest($2::text[], $3::text[]) AS f(sku_id, content_hash)
         LEFT JOIN ${this.outbox.manager.getRepository(EnrichmentSeen).metadata.tablePath} s
           ON s.shop = $1 AND s.sku_id = f.sku_id
        WHERE s.content_hash IS DISTINCT FROM f.content_hash`,
      [shop, records.map((r) => r.skuId), records.map((r) => r.contentHash)],
    );
    return new Set(rows.map((r) => r.sku_id));
  }

  /** Adds push work for a product outside a poll (a replay, an operator). */
  async add(shop: string, productId: string): Promise<void> {
    await this.outbox.insert({
      shop,
      shopifyProductId: productId,
      pollId: null,
      foundAt: new Date(this.clock.now()),
      state: 'pending',
    });
  }

  /** The shop's products with pending work (what the poll enqueues, stragglers included). */
  async pendingProducts(shop: string): Promise<string[]> {
    const rows: Array<{ product: string }> = await this.outbox.query(
      `SELECT DISTINCT shopify_product_id::text AS product FROM ${this.outbox.metadata.tablePath}
        WHERE shop = $1 AND state = 'pending'`,
      [shop],
    );
    return rows.map((r) => r.product);
  }

  /** Which of `productIds` have pending work. */
  async pendingAmong(shop: string, productIds: readonly string[]): Promise<Set<string>> {
    if (productIds.length === 0) return new Set();
    const rows: Array<{ product: string }> = await this.outbox.query(
      `SELECT DISTINCT shopify_product_id::text AS product FROM ${this.outbox.metadata.tablePath}
        WHERE shop = $1 AND state = 'pending' AND shopify_product_id = ANY($2::bigint[])`,
      [shop, [...productIds]],
    );
    return new Set(rows.map((r) => r.product));
  }

  /** The newest pending row of a product: a push run marks the rows up to it done. */
  async lastPending(shop: string, productId: string): Promise<string | null> {
    return (await this.pendingWork(shop, productId))?.id ?? null;
  }

  /** The newest pending row of a product with the records its poll read (the newest read). */
  async pendingWork(shop: string, productId: string): Promise<PendingWork | null> {
    const row = await this.outbox.findOne({
      select: { id: true, records: true },
      where: { shop, shopifyProductId: productId, state: 'pending' },
      order: { id: 'DESC' },
    });
    return row ? { id: row.id, records: row.records ?? null } : null;
  }

  /**
   * Marks a product's pending rows up to `upToId` done (later rows wait for the next run); their
   * records are dropped then (only pending work is planned from them).
   */
  async markDone(shop: string, productId: string, upToId: string): Promise<void> {
    await this.outbox.query(
      `UPDATE ${this.outbox.metadata.tablePath} SET state = 'done', done_at = $4, records = NULL
        WHERE shop = $1 AND shopify_product_id = $2 AND state = 'pending' AND id <= $3`,
      [shop, productId, upToId, new Date(this.clock.now())],
    );
  }

  /** Drops work done before `before`, in batches (retention; pending work never); resolves to how many. */
  prune(before: Date): Promise<number> {
    const table = this.outbox.metadata.tablePath;
    return pruneInBatches(async (limit) => {
      const result = await this.outbox
        .createQueryBuilder()
        .delete()
        .where(`id IN (SELECT id FROM ${table} WHERE state = 'done' AND done_at < :before LIMIT :limit)`, {
          before,
          limit,
        })
        .execute();
      return result.affected ?? 0;
    });
  }

  /**
   * The poll's progress over `shops`: the oldest `dataEnrichment.completedAt` checkpoint (epoch
   * ms, null before any shop has one), how many records the watchlists hold, and when each
   * shop's last poll finished its work (the `polled` row; shops never polled are absent).
   */
  async progress(
    shops: readonly string[],
  ): Promise<{ checkpoint: number | null; watched: number; polled: Map<string, number> }> {
    const manager = this.outbox.manager;
    const checkpoints = manager.getRepository(EnrichmentCheckpoint).metadata.tablePath;
    const [checkpoint] = (await manager.query(
      `SELECT min(checkpoint)::text AS at FROM ${checkpoints}
        WHERE field = 'dataEnrichment.completedAt' AND checkpoint IS NOT NULL AND shop = ANY($1::text[])`,
      [[...shops]],
    )) as Array<{ at: string | null }>;
    const [watched] = (await manager.query(
      `SELECT count(*)::text AS n FROM ${manager.getRepository(ReviewWatch).metadata.tablePath}
        WHERE shop = ANY($1::text[])`,
      [[...shops]],
    )) as Array<{ n: string }>;
    const polled = (await manager.query(
      `SELECT shop, checkpoint::text AS at FROM ${checkpoints}
        WHERE field = $2 AND checkpoint IS NOT NULL AND shop = ANY($1::text[])`,
      [[...shops], POLLED_CHECKPOINT],
    )) as Array<{ shop: string; at: string }>;
    const at = checkpoint?.at ?? null;
    return {
      checkpoint: at === null ? null : Number(at),
      watched: Number(watched?.n ?? 0),
      polled: new Map(polled.map((row) => [row.shop, Number(row.at)])),
    };
  }

  /** Pending and done rows of one poll's push work. */
  async pollProgress(pollId: string): Promise<{ pending: number; done: number }> {
    const rows: Array<{ state: string; n: string }> = await this.outbox.query(
      `SELECT state, count(*)::text AS n FROM ${this.outbox.metadata.tablePath} WHERE poll_id = $1 GROUP BY state`,
      [pollId],
    );
    const of = (state: string) => Number(rows.find((r) => r.state === state)?.n ?? 0);
    return { pending: of('pending'), done: of('done') };
  }

  /** The shop's watchlist, oldest first. */
  watchlist(shop: string): Promise<ReviewWatch[]> {
    return this.outbox.manager
      .getRepository(ReviewWatch)
      .find({ where: { shop }, order: { addedAt: 'ASC' } });
  }

  /** Watched records added before `before`: they age out (the poll drops them in its commit). */
  async agedOut(shop: string, before: Date): Promise<string[]> {
    const rows = await this.outbox.manager
      .getRepository(ReviewWatch)
      .find({ select: { skuId: true }, where: { shop, addedAt: LessThan(before) } });
    return rows.map((r) => r.skuId);
  }
}

/** The last of each skuId (a record found by two walks of one poll counts once). */
function dedupe(found: readonly FoundRecord[]): FoundRecord[] {
  return [...new Map(found.map((r) => [r.skuId, r])).values()];
}
