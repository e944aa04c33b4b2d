import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { CanonicalProduct } from '../clients/shopify/canonical-product.js';

/**
 * A product as a resync's bulk read found it, waiting for its sync (migration
 * `ResyncBulkReads1764000000060`); read through `ResyncSnapshots`.
 */
@Entity({ name: 'resync_snapshots' })
export class ResyncSnapshotRow {
  @PrimaryColumn({ type: 'bigint', name: 'run_id' })
  runId!: string;

  @PrimaryColumn({ type: 'bigint', name: 'product_id' })
  productId!: string;

  @Column({ type: 'text' })
  shop!: string;

  /** The connector's time just before the bulk operation was asked for. */
  @Column({ type: 'timestamptz', name: 'snapshot_at' })
  snapshotAt!: Date;

  @Column({ type: 'jsonb' })
  product!: CanonicalProduct;
}
