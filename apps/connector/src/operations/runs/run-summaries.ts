import type { DriftKind } from '../../drift/model/drift-finding.js';
import type { DriftFindingRow } from '../../drift/store/drift-finding-row.entity.js';
import type { DriftReport } from '../../drift/store/drift-report.entity.js';
import type { ResyncRun } from '../../resync/resync-run.entity.js';
import type { RunOutcomeCounts } from '../../resync/resync-run-outcomes.repository.js';
import type { RunKind, RunSummaryDto } from './runs.dto.js';

/** One line of a run's error report: a failed product (or a drift finding) and why. */
export interface RunErrorLine {
  productId: string | null;
  title: string | null;
  code: string | null;
  error: string | null;
  at: Date | null;
}

/** The error report's columns, in order. */
export const ERROR_REPORT_HEADER = ['product_id', 'title', 'error_code', 'error', 'at'] as const;

/** The kind a resync run is listed as: a reconciliation started by an operator, or a resync. */
export function kindOfRun(run: Pick<ResyncRun, 'scope'>): RunKind {
  return run.scope === 'reconcile' ? 'reconcile' : 'resync';
}

const links = (kind: RunKind, id: string) => ({
  page: kind === 'drift' ? `/admin/ui/drift/${id}` : `/admin/ui/runs/${kind}/${id}`,
  api: kind === 'drift' ? `/admin/drift/${id}` : `/admin/resync/${id}`,
  errors: `/admin/runs/${kind}/${id}/errors.csv`,
});

/** Why: a resync or reconciliation run as the history lists it, with its products' outcomes. */
export function resyncRunSummary(run: ResyncRun, counts: RunOutcomeCounts): RunSummaryDto {
  const kind = kindOfRun(run);
  return {
    kind,
    id: run.id,
    shop: run.shop,
    productId: run.productId,
    dryRun: run.dryRun,
    state: run.state,
    error: run.error,
    startedAt: run.createdAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
    counts: { ...counts },
    findings: null,
    ...links(kind, run.id),
  };
}

/** Why: a drift report as the history lists it: its findings against the previous report's. */
export function driftRunSummary(
  report: DriftReport,
  tally: { new: number; repaired: number },
): RunSummaryDto {
  const at = report.createdAt.toISOString();
  return {
    kind: 'drift',
    id: report.id,
    shop: report.shop,
    productId: null,
    dryRun: false,
    state: 'done',
    error: null,
    startedAt: at,
    finishedAt: at,
    counts: null,
    findings: {
      total: Object.values(report.counts).reduce((sum, n) => sum + n, 0),
      new: tally.new,
      resolved: report.resolved.length,
      repaired: tally.repaired,
    },
    ...links('drift', report.id),
  };
}

const DRIFT_WORDS: Readonly<Record<DriftKind, string>> = {
  'catalog-changed': 'a mapped value was changed in the catalog since the connector sent it',
  'missed-webhook': 'Shopify changed the product after its last sync',
  'record-gone': 'its catalog record no longer exists',
  orphan: 'a catalog record no shop of the connector claims',
  duplicate: 'a second catalog record with the supplierSku of a mapped one',
  'written-back-differs': 'a written-back value Shopify no longer holds (a merchant edit)',
  'no-longer-approved': 'a written-back value the catalog no longer approves',
};

const shown = (value: string | string[] | null) =>
  value === null ? 'nothing' : Array.isArray(value) ? value.join(', ') : `"${value}"`;

/** Why: a drift finding in the error report, in words: what disagrees, how, and its repair. */
export function driftFindingLine(row: DriftFindingRow, title: string | null, at: Date): RunErrorLine {
  const f = row.finding;
  const about = [
    f.field === null ? null : `field ${f.field}`,
    f.supplierSku === null ? null : `supplierSku ${f.supplierSku}`,
    f.skuId === null ? null : `record ${f.skuId}`,
  ].filter((part): part is string => part !== null);
  const compared =
    f.expected === null && f.found === null ? '' : `: expected ${shown(f.expected)}, found ${shown(f.found)}`;
  const repaired = row.repairedAt === null ? '' : `; repaired (${row.repairOutcome ?? 'done'})`;
  return {
    productId: f.productId,
    title,
    code: row.kind,
    error: `${DRIFT_WORDS[row.kind] ?? row.kind}${about.length > 0 ? ` (${about.join(', ')})` : ''}${compared}; repair: ${f.repair}${repaired}`,
    at,
  };
}
