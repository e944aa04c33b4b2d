import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { CanonicalProduct } from '../clients/shopify/canonical-product.js';
import type { SyncSubject } from './apply/sync-subject.js';
import { ResyncSnapshotRow } from './resync-snapshot.entity.js';

/** A product's snapshot from a resync's bulk read. */
export interface ResyncSnapshot {
  runId: string;
  snapshotAt: Date;
  product: CanonicalProduct;
}

/**
 * The products a resync's bulk read found, kept in PostgreSQL (never in job payloads) until the
 * product's sync ends: the resync writes them, the sync plans from them instead of reading the
 * product again, then deletes them.
 */
@Injectable()
export class ResyncSnapshots {
  constructor(@InjectRepository(ResyncSnapshotRow) private readonly rows: Repository<ResyncSnapshotRow>) {}

  /** Stores a batch of one run's products (a run's second read of a product replaces its first). */
  async save(
    runId: string,
    shop: string,
    snapshotAt: Date,
    products: readonly CanonicalProduct[],
  ): Promise<void> {
    if (products.length === 0) return;
    await this.rows.query(
      `INSERT INTO ${this.table} (run_id, shop, product_id, snapshot_at, product)
       SELECT $1, $2, unnest($3::bigint[]), $4, unnest($5::jsonb[])
       ON CONFLICT (run_id, product_id) DO UPDATE
         SET snapshot_at = EXCLUDED.snapshot_at, product = EXCLUDED.product`,
      [
        runId,
        shop,
        products.map((p) => p.legacyResourceId),
        snapshotAt,
        products.map((p) => JSON.stringify(p)),
      ],
    );
  }

  /** The product's latest snapshot (of its latest run), or null. */
  async latest(subject: SyncSubject): Promise<ResyncSnapshot | null> {
    const row = await this.rows.findOne({
      where: { shop: subject.shop, productId: subject.productId },
      order: { runId: 'DESC' },
    });
    return row ? { runId: row.runId, snapshotAt: row.snapshotAt, product: row.product } : null;
  }

  /** Deletes the product's snapshots taken up to `upTo` (what its finished sync read supersedes). */
  async remove(subject: SyncSubject, upTo: Date): Promise<void> {
    await this.rows.query(
      `DELETE FROM ${this.table} WHERE shop = $1 AND product_id = $2 AND snapshot_at <= $3`,
      [subject.shop, subject.productId, upTo],
    );
  }

  /** `shop/redact`: deletes every snapshot of the shop; resolves to how many went. */
  async purgeShop(shop: string): Promise<number> {
    return (await this.rows.delete({ shop })).affected ?? 0;
  }

  /** How many products of a run still wait with their snapshot. */
  async waiting(runId: string): Promise<number> {
    return this.rows.count({ where: { runId } });
  }

  private get table(): string {
    return this.rows.metadata.tablePath;
  }
}
