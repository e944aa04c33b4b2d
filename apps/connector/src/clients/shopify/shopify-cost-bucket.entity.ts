import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One shop's shared Admin API cost bucket (migration `CreateShopifyCostBuckets1764000000061`);
 * read and written through `SharedCostBuckets` only.
 */
@Entity({ name: 'shopify_cost_buckets' })
export class ShopifyCostBucketRow {
  @PrimaryColumn({ type: 'text' })
  shop!: string;

  /** Points as of `updatedMs`: the last report, less the calls taken since, plus their refunds. */
  @Column({ type: 'double precision' })
  available!: number;

  @Column({ type: 'double precision' })
  maximum!: number;

  @Column({ type: 'double precision', name: 'restore_rate' })
  restoreRate!: number;

  @Column({ type: 'bigint', name: 'updated_ms' })
  updatedMs!: string;
}
