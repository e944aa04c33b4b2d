import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { DriftFinding, DriftKind } from '../model/drift-finding.js';

/** `new`: not in the shop's previous report; `still-open`: it was, unrepaired or back again. */
export type DriftFindingStatus = 'new' | 'still-open';

/** One finding of a report; `repairedAt` once an operator's chosen repair ran (its outcome beside). */
@Entity({ name: 'drift_findings' })
export class DriftFindingRow {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'bigint', name: 'report_id' })
  reportId!: string;

  @Column({ type: 'text' })
  shop!: string;

  @Column({ type: 'text' })
  key!: string;

  @Column({ type: 'text' })
  kind!: DriftKind;

  @Column({ type: 'text' })
  status!: DriftFindingStatus;

  @Column({ type: 'jsonb' })
  finding!: DriftFinding;

  @Column({ type: 'timestamptz', name: 'repaired_at', nullable: true })
  repairedAt!: Date | null;

  @Column({ type: 'text', name: 'repair_outcome', nullable: true })
  repairOutcome!: string | null;
}
