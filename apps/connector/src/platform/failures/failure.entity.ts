import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** `resolved`: closed by a later successful run of its work (no operator involved). */
export type FailureState = 'open' | 'replayed' | 'dismissed' | 'resolved';

/** One time the failure happened: when, which job, after how many attempts, what it said. */
export interface FailureOccurrence {
  /** ISO 8601. */
  at: string;
  attempts: number;
  message: string;
  jobId?: string;
}

/** How many occurrences a failure keeps in its `history` (the latest; `occurrences` counts all). */
export const FAILURE_HISTORY_KEPT = 20;

/**
 * A job that could not do its work: a permanent error, or retries exhausted. One shape for every
 * job kind; at most one open failure per shop, kind, subject and cause (`error_code`): a repeat
 * adds to `attempts` and `occurrences`, moves `lastFailedAt` and joins `history`.
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

  /** What closed it when a later success did (`sync-product job 42`); null otherwise. */
  @Column({ type: 'text', name: 'resolved_by', nullable: true })
  resolvedBy!: string | null;

  /** How many times it happened while open. */
  @Column({ type: 'integer' })
  occurrences!: number;

  /** The latest occurrences, oldest first (at most `FAILURE_HISTORY_KEPT`). */
  @Column({ type: 'jsonb' })
  history!: FailureOccurrence[];
}
