import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The checkpoint row holding when the shop's last poll finished its work (committed its
 * checkpoints), epoch ms: the poll lag is measured from it, not from the catalog's newest
 * enrichment (a quiet catalog enriches nothing, and its polls are on time all the same).
 */
export const POLLED_CHECKPOINT = 'polled';

/**
 * Where the shop's next poll starts, per walked field (`dataEnrichment.completedAt`,
 * `updatedAt`), and when the review watchlist was last re-checked (`watchlist`). Written in the
 * same transaction as the outbox rows of the poll that advanced it.
 */
@Entity({ name: 'enrichment_checkpoint' })
export class EnrichmentCheckpoint {
  @PrimaryColumn({ type: 'text' })
  shop!: string;

  @PrimaryColumn({ type: 'text' })
  field!: string;

  /** Epoch ms (bigint as a decimal string); null: nothing seen yet. */
  @Column({ type: 'bigint', nullable: true })
  checkpoint!: string | null;

  @Column({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;
}
