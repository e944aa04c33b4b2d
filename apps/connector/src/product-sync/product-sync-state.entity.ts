import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Per Shopify product: the last applied `updatedAt` (drops stale payloads) and the tombstone. */
@Entity({ name: 'product_sync_state' })
export class ProductSyncState {
  @PrimaryColumn({ type: 'text' })
  shop!: string;

  @PrimaryColumn({ type: 'bigint', name: 'product_id' })
  productId!: string;

  @Column({ type: 'timestamptz', name: 'last_applied_updated_at', nullable: true })
  lastAppliedUpdatedAt!: Date | null;

  @Column({ type: 'timestamptz', name: 'last_synced_at', nullable: true })
  lastSyncedAt!: Date | null;

  @Column({ type: 'integer' })
  runs!: number;

  /** Set once for good when the product is deleted in Shopify. */
  @Column({ type: 'timestamptz', name: 'tombstoned_at', nullable: true })
  tombstonedAt!: Date | null;
}
