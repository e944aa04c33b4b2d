import { Injectable, Optional } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { Clock } from '#lib/clock';
import { Observations } from '../../platform/reporting/observations.service.js';
import { pruneInBatches } from '../../platform/reporting/retention-registry.service.js';
import type { PushState } from '../decide/write-back-state.js';
import { type PushResult, WriteBackPushRow } from './write-back-push.entity.js';
import { WriteBackStateRow } from './write-back-state.entity.js';

/** One entry of the push history to append. */
export interface PushRecord {
  ownerId: string;
  attribute: string;
  target: string;
  purpose: WriteBackPushRow['purpose'];
  valueHash: string | null;
  result: PushResult;
  errors?: readonly string[];
}

/** What one step of a push job stores, in one transaction. */
export interface PushStateChanges {
  /** States stored whole (settled, conflicts, outcomes); their intent is cleared. */
  states?: readonly PushState[];
  /** Intents recorded before the call: the state to store once the write is seen to have landed. */
  intents?: readonly PushState[];
  /** Targets whose intent is dropped (the write was refused: it never landed). */
  dropIntents?: ReadonlyArray<Pick<PushState, 'ownerId' | 'attribute' | 'target'>>;
  history?: readonly PushRecord[];
}

/**
 * The push states and the push history of a shop's products. Exactly once rests on the order
 * the push job keeps: intents committed before the Shopify call, outcomes after it; a run that
 * finds an intent asks Shopify whether it landed (`planWriteBack` settles it) before writing.
 */
@Injectable()
export class WriteBackStates {
  constructor(
    @InjectRepository(WriteBackStateRow) private readonly rows: Repository<WriteBackStateRow>,
    private readonly clock: Clock,
    @Optional() private readonly observations?: Observations,
  ) {}

  /** `shop/redact`: deletes every row of the shop (`ShopDataRegistry`); resolves to how many went. */
  async purgeShop(shop: string): Promise<number> {
    const pushes = (await this.rows.manager.getRepository(WriteBackPushRow).delete({ shop })).affected ?? 0;
    return pushes + ((await this.rows.delete({ shop })).affected ?? 0);
  }

  /** Every push state of one Shopify product (its own targets and its variants'). */
  async forProduct(shop: string, productId: string): Promise<PushState[]> {
    const rows = await this.rows.find({ where: { shop, productId }, order: { id: 'ASC' } });
    return rows.map(toPushState);
  }

  /** The Shopify products of the shop with a value the connector wrote there (`pushed`), by id. */
  async pushedProducts(shop: string): Promise<string[]> {
    const rows: Array<{ product_id: string }> = await this.rows.query(
      `SELECT DISTINCT product_id FROM ${this.table} WHERE shop = $1 AND status = 'pushed' ORDER BY product_id`,
      [shop],
    );
    return rows.map((row) => String(row.product_id));
  }

  /** Which of `productIds` have a push state of any status (something pushed, owned or intended). */
  async productsAmong(shop: string, productIds: readonly string[]): Promise<Set<string>> {
    if (productIds.length === 0) return new Set();
    const rows: Array<{ product_id: string }> = await this.rows.query(
      `SELECT DISTINCT product_id::text AS product_id FROM ${this.table}
        WHERE shop = $1 AND product_id = ANY($2::bigint[])`,
      [shop, [...productIds]],
    );
    return new Set(rows.map((row) => row.product_id));
  }

  /** The product's push history, oldest first. */
  history(shop: string, productId: string): Promise<WriteBackPushRow[]> {
    return this.rows.manager
      .getRepository(WriteBackPushRow)
      .find({ where: { shop, productId }, order: { id: 'ASC' } });
  }

  /** The product's latest `limit` history entries, latest first (product status, timeline). */
  recent(shop: string, productId: string, limit: number): Promise<WriteBackPushRow[]> {
    return this.rows.manager
      .getRepository(WriteBackPushRow)
      .find({ where: { shop, productId }, order: { id: 'DESC' }, take: limit });
  }

  /** Write-backs sent (`push` entries) per minute since `since` (the overview's chart and figure). */
  async pushesPerMinute(since: Date): Promise<Array<{ minute: Date; count: number }>> {
    const history = this.rows.manager.getRepository(WriteBackPushRow);
    const rows: Array<{ minute: Date; count: string }> = await history.query(
      `SELECT date_trunc('minute', at) AS minute, count(*) AS count FROM ${history.metadata.tablePath}
        WHERE at >= $1 AND purpose = 'push' GROUP BY 1`,
      [since],
    );
    return rows.map((row) => ({ minute: new Date(row.minute), count: Number(row.count) }));
  }

  /** The latest history entries, optionally of one shop, since `since` (the view's write-backs list). */
  latestPushes(filter: { shop: string | null; since: Date }, limit: number): Promise<WriteBackPushRow[]> {
    const query = this.rows.manager
      .getRepository(WriteBackPushRow)
      .createQueryBuilder('p')
      .where('p.at >= :since', { since: filter.since })
      .orderBy('p.id', 'DESC')
      .take(limit);
    if (filter.shop !== null) query.andWhere('p.shop = :shop', { shop: filter.shop });
    return query.getMany();
  }

  /** Deletes history entries older than `before`, in batches (retention); resolves to how many. */
  pruneHistory(before: Date): Promise<number> {
    const history = this.rows.manager.getRepository(WriteBackPushRow);
    const table = history.metadata.tablePath;
    return pruneInBatches(async (limit) => {
      const result = await history
        .createQueryBuilder()
        .delete()
        .where(`id IN (SELECT id FROM ${table} WHERE at < :before ORDER BY id LIMIT :limit)`, {
          before,
          limit,
        })
        .execute();
      return result.affected ?? 0;
    });
  }

  /** Stores states, intents and history entries of one product in one transaction. */
  async save(
    shop: string,
    productId: string,
    changes: PushStateChanges,
    jobId: string | null = null,
  ): Promise<void> {
    await this.rows.manager.transaction(async (manager) => {
      const now = new Date(this.clock.now());
      for (const state of changes.states ?? []) await this.upsert(manager, shop, productId, state, now);
      for (const intent of changes.intents ?? []) {
        await manager.query(
          `INSERT INTO ${this.table} AS w
             (shop, product_id, owner_id, attribute, target_key, status, intent, updated_at)
           VALUES ($1, $2, $3, $4, $5, 'none', $6::jsonb, $7)
           ON CONFLICT (shop, owner_id, attribute, target_key) DO UPDATE
             SET intent = EXCLUDED.intent, updated_at = EXCLUDED.updated_at`,
          [
            shop,
            productId,
            intent.ownerId,
            intent.attribute,
            intent.target,
            JSON.stringify({ ...intent, intent: null }),
            now,
          ],
        );
      }
      for (const target of changes.dropIntents ?? []) {
        await manager.query(
          `UPDATE ${this.table} SET intent = NULL, updated_at = $5
            WHERE shop = $1 AND owner_id = $2 AND attribute = $3 AND target_key = $4`,
          [shop, target.ownerId, target.attribute, target.target, now],
        );
      }
      const history = changes.history ?? [];
      if (history.length > 0) {
        await manager.getRepository(WriteBackPushRow).insert(
          history.map((entry) => ({
            shop,
            productId,
            ownerId: entry.ownerId,
            attribute: entry.attribute,
            targetKey: entry.target,
            purpose: entry.purpose,
            valueHash: entry.valueHash,
            result: entry.result,
            errors: [...(entry.errors ?? [])],
            jobId,
            at: now,
          })),
        );
      }
    });
    for (const entry of changes.history ?? []) this.observe(shop, entry);
  }

  /** Metrics, once committed: a conflict (merchant edit, stale digest) or a finished write-back. */
  private observe(shop: string, entry: PushRecord): void {
    if (entry.result === 'conflict') this.observations?.conflict({ shop, kind: 'merchant_edit' });
    else if (entry.result === 'stale') this.observations?.conflict({ shop, kind: 'stale_digest' });
    this.observations?.writeBack({ shop, outcome: `${entry.purpose}_${entry.result}` });
  }

  private async upsert(
    manager: EntityManager,
    shop: string,
    productId: string,
    state: PushState,
    now: Date,
  ): Promise<void> {
    const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));
    await manager.query(
      `INSERT INTO ${this.table} AS w
         (shop, product_id, owner_id, attribute, target_key, status, value_hash, restore, tags, removed_tags,
          intent, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10::jsonb, NULL, $11)
       ON CONFLICT (shop, owner_id, attribute, target_key) DO UPDATE
         SET product_id = EXCLUDED.product_id, status = EXCLUDED.status, value_hash = EXCLUDED.value_hash,
             restore = EXCLUDED.restore, tags = EXCLUDED.tags, removed_tags = EXCLUDED.removed_tags,
             intent = NULL, updated_at = EXCLUDED.updated_at`,
      [
        shop,
        productId,
        state.ownerId,
        state.attribute,
        state.target,
        state.status,
        state.valueHash,
        json(state.restore),
        json(state.tags),
        json(state.removedTags),
        now,
      ],
    );
  }

  private get table(): string {
    return this.rows.metadata.tablePath;
  }
}

/** A stored row as the planner reads it; an intent-only row is a target the connector never wrote. */
function toPushState(row: WriteBackStateRow): PushState {
  const state: PushState = {
    ownerId: row.ownerId,
    attribute: row.attribute,
    target: row.targetKey,
    status: row.status === 'none' ? 'retracted' : row.status,
    valueHash: row.status === 'none' ? null : row.valueHash,
  };
  if (row.restore !== null) state.restore = row.restore;
  if (row.tags !== null) state.tags = row.tags;
  if (row.removedTags !== null) state.removedTags = row.removedTags;
  if (row.intent !== null) state.intent = row.intent;
  return state;
}
