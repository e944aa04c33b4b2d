import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** `resolved`: closed by a later successful run of its work (no operator involved). */
export type FailureState = 'open' | 'replayed' | 'dismissed' | 'resolved';

/**
 * A job that could not do its work: a permanent error, or retries exhausted. One shape for every
 * job kind; at most one open failure per shop, kind and subject (repeats add to `attempts`).
 */
@Entity({ name: 'failures' })
export class Failure {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'text' })
  shop!: string;

  @Column({ type: 'text', name: 'job_kind' })
  jobKind!: string;

  /** What the job was about, e.g. the Shopify product id. */
  @Column({ type: 'text', name: 'subject_key' })
  subjectKey!: string;

  /** The job's data: enough for its kind's replay handler to run it again. */
  @Column({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  @Column({ type: 'text', name: 'error_code' })
  errorCode!: string;

  @Column({ type: 'text', name: 'error_message' })
  errorMessage!: string;

  @Column({ type: 'boolean' })
  retryable!: boolean;

  @Column({ type: 'integer' })
  attempts!: number;

  @Column({ type: 'timestamptz', name: 'first_failed_at' })
  firstFailedAt!: Date;

  @Column({ type: 'timestamptz', name: 'last_failed_at' })
  lastFailedAt!: Date;

  @Column({ type: 'text' })
  state!: FailureState;

  @Column({ type: 'timestamptz', name: 'resolved_at', nullable: true })
  resolvedAt!: Date | null;
}
