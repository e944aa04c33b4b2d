import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { RecordSnapshot } from './record-snapshot.js';

/**
 * Push work a poll found for one Shopify product (the outbox): written with the hashes of the
 * page of records that found it in one transaction, before the poll's checkpoints move, so work
 * found is never lost by a crash before the enqueue; `done` once a push job covered it.
 */
@Entity({ name: 'enrichment_outbox' })
export class EnrichmentOutboxRow {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'text' })
  shop!: string;

  /** Shopify's numeric product id (decimal string). */
  @Column({ type: 'bigint', name: 'shopify_product_id' })
  shopifyProductId!: string;

  /** The poll that found it (null: a merchant-edit check or a replay). */
  @Column({ type: 'text', name: 'poll_id', nullable: true })
  pollId!: string | null;

  @Column({ type: 'timestamptz', name: 'found_at' })
  foundAt!: Date;

  @Column({ type: 'text' })
  state!: 'pending' | 'done';

  @Column({ type: 'timestamptz', name: 'done_at', nullable: true })
  doneAt!: Date | null;

  /** The product's records as the poll read them (null: a replay or an operator's; the push searches). */
  @Column({ type: 'jsonb', nullable: true })
  records!: RecordSnapshot | null;
}
