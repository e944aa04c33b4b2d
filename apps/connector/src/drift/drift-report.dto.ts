import type { DriftFinding, DriftKind } from './model/drift-finding.js';
import type { DriftFindingRow } from './store/drift-finding-row.entity.js';
import type { DriftReport } from './store/drift-report.entity.js';

/** Why: what the admin API answers for a report: its counts, its comparison, its findings. */
export interface DriftReportDto {
  id: string;
  shop: string;
  createdAt: string;
  catalogSearches: number;
  catalogRecords: number;
  counts: Record<DriftKind, number>;
  previousId: string | null;
  new: number;
  stillOpen: number;
  /** Keys of the previous report's findings this one no longer finds. */
  resolved: string[];
  findings: Array<
    DriftFinding & { id: string; status: string; repairedAt: string | null; repairOutcome: string | null }
  >;
}

/** A stored report and its findings as the admin API shows them. */
export function driftReportDto(report: DriftReport, rows: readonly DriftFindingRow[]): DriftReportDto {
  return {
    id: report.id,
    shop: report.shop,
    createdAt: report.createdAt.toISOString(),
    catalogSearches: report.catalogSearches,
    catalogRecords: report.catalogRecords,
    counts: report.counts,
    previousId: report.previousId,
    new: rows.filter((r) => r.status === 'new').length,
    stillOpen: rows.filter((r) => r.status === 'still-open').length,
    resolved: report.resolved,
    findings: rows.map((r) => ({
      ...r.finding,
      id: r.id,
      status: r.status,
      repairedAt: r.repairedAt?.toISOString() ?? null,
      repairOutcome: r.repairOutcome,
    })),
  };
}
