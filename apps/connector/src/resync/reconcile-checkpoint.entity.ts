import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Where a shop's reconciliation stands (migration `CreateResync1764000000040`): changes made at
 * or after `checkpoint` are looked at by the next run; what it found is kept for operators.
 */
@Entity({ name: 'reconcile_checkpoints' })
export class ReconcileCheckpoint {
  @PrimaryColumn({ type: 'text' })
  shop!: string;

  @Column({ type: 'timestamptz' })
  checkpoint!: Date;

  @Column({ type: 'timestamptz', name: 'last_run_at' })
  lastRunAt!: Date;

  /** Products enqueued by the last run because of a change the map had not seen. */
  @Column({ type: 'integer', name: 'last_changed' })
  lastChanged!: number;

  /** Products enqueued by the last run because Shopify no longer lists them. */
  @Column({ type: 'integer', name: 'last_deleted' })
  lastDeleted!: number;
}
