import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { PushState, RestoreValue } from '../decide/write-back-state.js';

/**
 * One `PushState` as stored: what the connector last did to one target of one owner for one
 * attribute. `intent` is written (committed) before the Shopify call and cleared with the outcome.
 */
@Entity({ name: 'write_back_state' })
export class WriteBackStateRow {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'text' })
  shop!: string;

  /** Shopify's numeric product id the owner belongs to. */
  @Column({ type: 'bigint', name: 'product_id' })
  productId!: string;

  @Column({ type: 'text', name: 'owner_id' })
  ownerId!: string;

  @Column({ type: 'text' })
  attribute!: string;

  @Column({ type: 'text', name: 'target_key' })
  targetKey!: string;

  /** `none`: only an intent so far (the first write of a target whose outcome is not known). */
  @Column({ type: 'text' })
  status!: PushState['status'] | 'none';

  @Column({ type: 'text', name: 'value_hash', nullable: true })
  valueHash!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  restore!: RestoreValue | null;

  @Column({ type: 'jsonb', nullable: true })
  tags!: string[] | null;

  @Column({ type: 'jsonb', name: 'removed_tags', nullable: true })
  removedTags!: string[] | null;

  @Column({ type: 'jsonb', nullable: true })
  intent!: PushState | null;

  @Column({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;
}
