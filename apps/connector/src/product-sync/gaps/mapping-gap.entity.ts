import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { GapReason } from './gap-reasons.js';

/**
 * One product the mapping cannot fully map, as its last sync planned it (migration
 * `CreateMappingGaps1764000000095`): a row of `mapping_gaps`. A product without gaps has none.
 */
@Entity({ name: 'mapping_gaps' })
export class MappingGapRow {
  @PrimaryColumn({ type: 'text' })
  shop!: string;

  /** Shopify's numeric product id. */
  @PrimaryColumn({ type: 'bigint', name: 'product_id' })
  productId!: string;

  /** The product's title in Shopify when it was planned (lists show it beside the id). */
  @Column({ type: 'text', nullable: true })
  title!: string | null;

  /** Why, in words, one entry per cause (`productGapReasons`). */
  @Column({ type: 'jsonb' })
  reasons!: GapReason[];

  /** The catalog has no record of the product: its plan refused the create. */
  @Column({ type: 'boolean' })
  blocked!: boolean;

  @Column({ type: 'timestamptz', name: 'recorded_at' })
  recordedAt!: Date;
}
