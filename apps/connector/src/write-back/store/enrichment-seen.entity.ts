import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The last `recordContentHash` the poll worked on per catalog record: a record found again (the
 * overlap window, the watchlist, the updatedAt fast path) with the same hash is not pushed again.
 */
@Entity({ name: 'enrichment_seen' })
export class EnrichmentSeen {
  @PrimaryColumn({ type: 'text' })
  shop!: string;

  @PrimaryColumn({ type: 'text', name: 'sku_id' })
  skuId!: string;

  @Column({ type: 'text', name: 'content_hash' })
  contentHash!: string;

  @Column({ type: 'timestamptz', name: 'seen_at' })
  seenAt!: Date;
}
