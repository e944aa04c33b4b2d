import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository } from 'typeorm';
import { FailuresRepository } from '../platform/failures/failures.repository.js';
import { pruneInBatches } from '../platform/reporting/retention-registry.service.js';
import { InboxEntry } from './inbox-entry.entity.js';
import type { VerifiedDelivery } from './verified-delivery.js';

/** A product with deliveries waiting for a sync job. */
export interface PendingProduct {
  shop: string;
  productId: string;
}

/** A stored delivery waiting for its product's sync job. */
export interface PendingDelivery {
  id: string;
  topic: string;
  payloadUpdatedAt: Date | null;
  receivedAt: Date;
}

/** The inbox table's queries; every one is keyed by shop. */
@Injectable()
export class InboxRepository {
  constructor(
    @InjectRepository(InboxEntry) private readonly entries: Repository<InboxEntry>,
    private readonly failures: FailuresRepository,
  ) {}

  /** `shop/redact`: deletes every row of the shop (`ShopDataRegistry`); resolves to how many went. */
  async purgeShop(shop: string): Promise<number> {
    return (await this.entries.delete({ shop })).affected ?? 0;
  }

  /**
   * Stores deliveries in one statement, each unless its webhook id is already there (or earlier
   * in the same list); resolves to each one's new row, or null, in order. One plain
   * parameterised INSERT: it is the whole storage cost of a webhook's answer, and the query
   * builder's own work showed in the intake profile (bench/HISTORY.md, "ingest").
   */
  async insertMany(
    deliveries: ReadonlyArray<{ delivery: VerifiedDelivery; receivedAt: Date }>,
  ): Promise<Array<InboxEntry | null>> {
    if (deliveries.length === 0) return [];
    const rows = deliveries.map(({ delivery, receivedAt }) => newEntry(delivery, receivedAt));
    const values: unknown[] = [];
    const tuples = rows.map((row) => {
      const at = values.length;
      values.push(
        row.shop,
        row.webhookId,
        row.eventId,
        row.triggeredAt,
        row.topic,
        row.apiVersion,
        row.productId,
        row.payloadUpdatedAt,
        row.body,
        row.bodyBytes,
        row.bodyTruncated,
        row.state,
        row.outcome,
        row.receivedAt,
      );
      return `(${Array.from({ length: INSERT_COLUMNS }, (_, i) => `$${at + i + 1}`).join(', ')})`;
    });
    const inserted: Array<{ id: string; shop: string; webhook_id: string }> = await this.entries.query(
      `INSERT INTO ${this.entries.metadata.tablePath}
         (shop, webhook_id, event_id, triggered_at, topic, api_version, product_id,
          payload_updated_at, body, body_bytes, body_truncated, state, outcome, received_at)
       VALUES ${tuples.join(', ')}
       ON CONFLICT DO NOTHING
       RETURNING id::text AS id, shop, webhook_id`,
      values,
    );
    const ids = new Map(inserted.map((row) => [`${row.shop}\u0000${row.webhook_id}`, row.id]));
    return rows.map((row) => {
      const key = `${row.shop}\u0000${row.webhookId}`;
      const id = ids.get(key);
      // A webhook id twice in one list: the first is the one stored, the second a duplicate.
      ids.delete(key);
      return id === undefined ? null : { ...row, id };
    });
  }

  /** Deletes handled deliveries received before `before` (never `received` ones); resolves to how many went. */
  pruneHandledBefore(before: Date): Promise<number> {
    const inbox = this.entries.metadata.tablePath;
    return pruneInBatches(async (limit) => {
      const [, affected]: [unknown, number] = await this.entries.query(
        `DELETE FROM ${inbox} WHERE id IN (SELECT id FROM ${inbox}
           WHERE state <> 'received' AND received_at < $1 ORDER BY received_at LIMIT $2)`,
        [before, limit],
      );
      return affected;
    });
  }

  /** A product's latest deliveries, newest first (its timeline). */
  ofProduct(shop: string, productId: string, limit: number): Promise<InboxEntry[]> {
    return this.entries.find({ where: { shop, productId }, order: { receivedAt: 'DESC' }, take: limit });
  }

  findByWebhookId(shop: string, webhookId: string): Promise<InboxEntry | null> {
    return this.entries.findOneBy({ shop, webhookId });
  }

  /** Notes that these deliveries' sync jobs are queued (one statement per enqueue batch). */
  async markEnqueued(ids: readonly string[], at: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.entries.update({ id: In([...ids]) }, { enqueuedAt: at });
  }

  /** The product's deliveries still waiting, oldest first. */
  async pendingFor(shop: string, productId: string): Promise<PendingDelivery[]> {
    const rows = await this.entries.find({
      select: { id: true, topic: true, payloadUpdatedAt: true, receivedAt: true },
      where: { shop, productId, state: 'received' },
      order: { id: 'ASC' },
    });
    return rows.map(({ id, topic, payloadUpdatedAt, receivedAt }) => ({
      id,
      topic,
      payloadUpdatedAt,
      receivedAt,
    }));
  }

  /** Marks deliveries handled, with why. */
  async complete(ids: string[], outcome: string, at: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.entries.update(
      { id: In(ids), state: 'received' },
      { state: 'done', outcome, processedAt: at },
    );
  }

  /**
   * Every product with deliveries still `received`, after `after` in (shop, product) order, at
   * most `limit`; products whose sync has an open failure are left out (a queue backend that
   * lost its data is repaired from this).
   */
  async unprocessedProducts(
    after: { shop: string; productId: string },
    limit: number,
  ): Promise<PendingProduct[]> {
    const inbox = this.entries.metadata.tablePath;
    const rows: Array<{ shop: string; product_id: string }> = await this.entries.query(
      `SELECT DISTINCT i.shop, i.product_id::text AS product_id
         FROM ${inbox} i
        WHERE i.state = 'received' AND i.product_id IS NOT NULL
          AND (i.shop, i.product_id) > ($1, $2::bigint)
          AND NOT ${this.openSyncFailure}
        ORDER BY i.shop, product_id LIMIT $3`,
      [after.shop, after.productId, limit],
    );
    return rows.map((row) => ({ shop: row.shop, productId: row.product_id }));
  }

  /**
   * Products with deliveries received before `before` and still waiting, skipping those whose
   * sync has an open failure (they wait for a replay, not for the sweeper).
   */
  async staleProducts(before: Date, limit: number): Promise<PendingProduct[]> {
    const inbox = this.entries.metadata.tablePath;
    const rows: Array<{ shop: string; product_id: string }> = await this.entries.query(
      `SELECT DISTINCT i.shop, i.product_id::text AS product_id
         FROM ${inbox} i
        WHERE i.state = 'received' AND i.received_at < $1 AND i.product_id IS NOT NULL
          AND NOT ${this.openSyncFailure}
        LIMIT $2`,
      [before, limit],
    );
    return rows.map((row) => ({ shop: row.shop, productId: row.product_id }));
  }

  /**
   * Per shop: the deliveries whose sync is still to come (a job or the sweeper has them) and the
   * oldest one's arrival, and apart the deliveries held by an open failure of their product's
   * sync (no job: they wait for a replay). A backlog is work waiting, so only the first count as
   * one (the overview); the held ones are the failure's business.
   */
  async backlog(): Promise<Array<{ shop: string; waiting: number; oldest: Date | null; held: number }>> {
    const rows: Array<{ shop: string; waiting: string; oldest: Date | null; held: string }> =
      await this.entries.query(
        `SELECT shop, count(*) FILTER (WHERE NOT held) AS waiting, min(received_at) FILTER (WHERE NOT held) AS oldest,
                count(*) FILTER (WHERE held) AS held
           FROM (SELECT i.shop, i.received_at, ${this.openSyncFailure} AS held
                   FROM ${this.entries.metadata.tablePath} i
                  WHERE i.state = 'received' AND i.product_id IS NOT NULL) d
          GROUP BY shop`,
      );
    return rows.map((row) => ({
      shop: row.shop,
      waiting: Number(row.waiting),
      oldest: row.oldest === null ? null : new Date(row.oldest),
      held: Number(row.held),
    }));
  }

  /** Deliveries received per minute since `since`, optionally of one shop (the overview's chart). */
  async perMinute(since: Date, shop: string | null): Promise<Array<{ minute: Date; count: number }>> {
    const rows: Array<{ minute: Date; count: string }> = await this.entries.query(
      `SELECT date_trunc('minute', received_at) AS minute, count(*) AS count
         FROM ${this.entries.metadata.tablePath}
        WHERE received_at >= $1 AND ($2::text IS NULL OR shop = $2) GROUP BY 1`,
      [since, shop],
    );
    return rows.map((row) => ({ minute: new Date(row.minute), count: Number(row.count) }));
  }

  /** The latest deliveries, optionally of one shop, state, and since a time (the view's deliveries list). */
  async latest(
    filter: { shop: string | null; state: string | null; since: Date | null },
    limit: number,
  ): Promise<InboxEntry[]> {
    const query = this.entries.createQueryBuilder('i').orderBy('i.received_at', 'DESC').take(limit);
    if (filter.shop !== null) query.andWhere('i.shop = :shop', { shop: filter.shop });
    if (filter.state !== null) query.andWhere('i.state = :state', { state: filter.state });
    if (filter.since !== null) query.andWhere('i.received_at >= :since', { since: filter.since });
    return query.getMany();
  }

  /**
   * The first bytes (at most `bytes`) of each product's latest kept `products/create` or
   * `products/update` body, where the payload's product fields come first: the web view reads a
   * title there for a product the sku map does not name. One statement for the whole list.
   */
  async productHeads(
    products: ReadonlyArray<{ shop: string; productId: string }>,
    bytes: number,
  ): Promise<Array<{ shop: string; productId: string; head: Buffer }>> {
    if (products.length === 0) return [];
    const rows: Array<{ shop: string; product_id: string; head: Buffer }> = await this.entries.query(
      `SELECT DISTINCT ON (i.shop, i.product_id) i.shop, i.product_id::text AS product_id,
              substring(i.body from 1 for $3) AS head
         FROM unnest($1::text[], $2::bigint[]) AS q(shop, product_id)
         JOIN ${this.entries.metadata.tablePath} i ON i.shop = q.shop AND i.product_id = q.product_id
        WHERE i.body IS NOT NULL AND i.topic IN ('products/create', 'products/update') AND i.state <> 'rejected'
        ORDER BY i.shop, i.product_id, i.received_at DESC`,
      [products.map((p) => p.shop), products.map((p) => p.productId), bytes],
    );
    return rows.map((row) => ({ shop: row.shop, productId: row.product_id, head: row.head }));
  }

  /** Deliveries done per minute and outcome since `since` (the overview's syncs-by-outcome chart). */
  async outcomesPerMinute(since: Date): Promise<Array<{ minute: Date; outcome: string; count: number }>> {
    const rows: Array<{ minute: Date; outcome: string | null; count: string }> = await this.entries.query(
      `SELECT date_trunc('minute', processed_at) AS minute, outcome, count(*) AS count
         FROM ${this.entries.metadata.tablePath} WHERE processed_at >= $1 GROUP BY 1, 2`,
      [since],
    );
    return rows.map((row) => ({
      minute: new Date(row.minute),
      outcome: row.outcome ?? 'none',
      count: Number(row.count),
    }));
  }

  /** The condition "the inbox row's product has an open sync failure" (the failures table's own). */
  private get openSyncFailure(): string {
    return this.failures.openFailureExists('sync-product', {
      shop: 'i.shop',
      subjectKey: 'i.product_id::text',
    });
  }
}

/** Values per row of `insertMany`. */
const INSERT_COLUMNS = 14;

/** The row a delivery becomes (its id is the database's). */
function newEntry(delivery: VerifiedDelivery, receivedAt: Date): InboxEntry {
  return {
    id: '',
    shop: delivery.shop,
    webhookId: delivery.webhookId,
    eventId: delivery.eventId,
    triggeredAt: delivery.triggeredAt,
    topic: delivery.topic,
    apiVersion: delivery.apiVersion,
    productId: delivery.productId,
    payloadUpdatedAt: delivery.payloadUpdatedAt,
    body: delivery.body,
    bodyBytes: delivery.bodyBytes,
    bodyTruncated: delivery.bodyTruncated,
    state: delivery.rejection ? 'rejected' : 'received',
    outcome: delivery.rejection?.code ?? null,
    receivedAt,
    enqueuedAt: null,
    processedAt: null,
  };
}
