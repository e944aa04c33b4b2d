import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { CatalogCallRecord } from './apply/catalog-call-record.js';

/** One product sync run (migration `CreateSyncRecords1764000000005`); read through `SyncRecords`. */
@Entity({ name: 'sync_records' })
export class SyncRecordRow {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'text' })
  shop!: string;

  @Column({ type: 'bigint', name: 'product_id' })
  productId!: string;

  @Column({ type: 'text', name: 'job_id', nullable: true })
  jobId!: string | null;

  @Column({ type: 'text' })
  reason!: string;

  /** The run's `SyncOutcome`, or `failed`. */
  @Column({ type: 'text' })
  outcome!: string;

  /** Why nothing was sent (`skipped`), or the catalog side's result. */
  @Column({ type: 'text', nullable: true })
  detail!: string | null;

  @Column({ type: 'jsonb' })
  calls!: CatalogCallRecord[];

  @Column({ type: 'jsonb' })
  events!: string[];

  @Column({ type: 'jsonb', nullable: true })
  error!: { code: string; message: string } | null;

  /** The product's title when the run read it (migration `SyncRecordTitles1764000000105`); else null. */
  @Column({ type: 'text', nullable: true })
  title!: string | null;

  @Column({ type: 'timestamptz', name: 'started_at' })
  startedAt!: Date;

  @Column({ type: 'timestamptz', name: 'finished_at' })
  finishedAt!: Date;
}
