import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A mapped record with write-back attributes still awaiting review (`blame: ENRICHMENT`):
 * re-checked on the watchlist's cadence until none are left, or until it ages out.
 */
@Entity({ name: 'review_watchlist' })
export class ReviewWatch {
  @PrimaryColumn({ type: 'text' })
  shop!: string;

  @PrimaryColumn({ type: 'text', name: 'sku_id' })
  skuId!: string;

  @Column({ type: 'bigint', name: 'shopify_product_id' })
  shopifyProductId!: string;

  /** The attribute keys still pending. */
  @Column({ type: 'jsonb' })
  attributes!: string[];

  @Column({ type: 'timestamptz', name: 'added_at' })
  addedAt!: Date;

  @Column({ type: 'timestamptz', name: 'last_checked_at' })
  lastCheckedAt!: Date;
}
