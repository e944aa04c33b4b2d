import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** What happened to one push: the history the admin API shows. */
export type PushResult =
  | 'ok'
  | 'rejected'
  | 'stale'
  | 'unknown'
  | 'throttled'
  | 'conflict'
  | 'unfit'
  | 'landed';

/**
 * One entry of the push history: product, attribute, target, value hash, time and result of
 * every push, retraction, merchant conflict and settled intent.
 */
@Entity({ name: 'write_back_push' })
export class WriteBackPushRow {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'text' })
  shop!: string;

  @Column({ type: 'bigint', name: 'product_id' })
  productId!: string;

  @Column({ type: 'text', name: 'owner_id' })
  ownerId!: string;

  @Column({ type: 'text' })
  attribute!: string;

  @Column({ type: 'text', name: 'target_key' })
  targetKey!: string;

  @Column({ type: 'text' })
  purpose!: 'push' | 'retract' | 'conflict' | 'settle';

  @Column({ type: 'text', name: 'value_hash', nullable: true })
  valueHash!: string | null;

  @Column({ type: 'text' })
  result!: PushResult;

  @Column({ type: 'jsonb' })
  errors!: string[];

  @Column({ type: 'text', name: 'job_id', nullable: true })
  jobId!: string | null;

  @Column({ type: 'timestamptz' })
  at!: Date;
}
