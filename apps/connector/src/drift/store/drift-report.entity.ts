import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { DriftKind } from '../model/drift-finding.js';

/**
 * One drift report of a shop (migration `CreateDriftReports1764000000082`): how many findings of
 * each kind, what it cost in catalog searches, and the keys of the previous report's findings it
 * no longer finds (resolved).
 */
@Entity({ name: 'drift_reports' })
export class DriftReport {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'text' })
  shop!: string;

  @Column({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;

  @Column({ type: 'integer', name: 'catalog_searches' })
  catalogSearches!: number;

  @Column({ type: 'integer', name: 'catalog_records' })
  catalogRecords!: number;

  /** Findings per kind (every kind present, zeros included). */
  @Column({ type: 'jsonb' })
  counts!: Record<DriftKind, number>;

  /** The shop's report before this one, null for its first. */
  @Column({ type: 'bigint', name: 'previous_id', nullable: true })
  previousId!: string | null;

  /** Keys of the previous report's findings this one no longer finds. */
  @Column({ type: 'jsonb' })
  resolved!: string[];
}
