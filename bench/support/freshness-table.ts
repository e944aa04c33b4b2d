// The table `freshness` prints: its figures, one row each, against the targets.
import type { BenchResult } from './benchmark.js';
import type { PollShareFigures } from './freshness-budgets.js';
import type { LatencyFigures } from './freshness-edits.js';

/** What the table reads from `freshness`'s figures. */
export interface FreshnessTableInput {
  edits: number;
  approvals: number;
  pollIntervalMs: number;
  activePollIntervalMs: number | null;
  watchlistIntervalMs: number;
  targets: { idleP95Ms: number; duringResyncP95Ms: number; approvalP95Ms: number; pollBudgetShare: number };
  idle: LatencyFigures;
  duringResync: LatencyFigures & {
    appliedBy: Record<string, LatencyFigures>;
    catalogCallsPerSecond: number;
    catalogBudgetUse: number | null;
    shopifyPointsPerSecond: number;
    shopifyBucketUse: number | null;
  };
  approval: LatencyFigures;
  approvalReviewMovesUpdatedAt: LatencyFigures;
  pollBudget: {
    approvals: PollShareFigures;
    duringResync: PollShareFigures;
    sinceResyncStart: PollShareFigures;
    wholeRunReported: { share: number; windowSeconds: number; bound: number } | null;
  };
  naive: { idle: LatencyFigures };
}

/** The rows: each latency as p50 / p95 / max, each share with its calls, against its target. */
export function freshnessTable(f: FreshnessTableInput): BenchResult['table'] {
  const cell = (l: LatencyFigures) =>
    l.unseen > 0 ? `${l.unseen} of ${l.count} never seen` : `${l.p50Ms} / ${l.p95Ms} / ${l.maxMs}`;
  const met = (l: LatencyFigures) => (l.targetMet ? 'met' : 'missed');
  const target = f.targets.pollBudgetShare;
  const shareCell = (s: PollShareFigures) =>
    `${s.share} (${s.calls.early} early + ${s.calls.schedule} scheduled calls in ${s.windowS} s; ${s.catalogSearches} searches)`;
  const shareMet = (s: PollShareFigures) =>
    `<= ${target}: ${s.share !== null && s.share <= target ? 'met' : 'missed'}`;
  const during = f.duringResync;
  const reported = f.pollBudget.wholeRunReported;
  return {
    head: ['figure (p50 / p95 / max ms)', 'connector', 'naive peer', 'target'],
    rows: [
      [
        `(a) idle, save -> catalog (${f.edits})`,
        cell(f.idle),
        cell(f.naive.idle),
        `p95 <= ${f.targets.idleP95Ms}: ${met(f.idle)}`,
      ],
      [
        `(b) during the resync (${f.edits})`,
        cell(during),
        null,
        `p95 <= ${f.targets.duringResyncP95Ms}: ${met(during)}`,
      ],
      ...Object.entries(during.appliedBy).map(([reason, l]) => [
        `    applied by a '${reason}' run (${l.count})`,
        cell(l),
        null,
        null,
      ]),
      [
        '    catalog calls/s during the edits, / rate',
        `${during.catalogCallsPerSecond}, ${during.catalogBudgetUse}`,
        null,
        null,
      ],
      [
        '    Shopify points/s during the edits, / restore rate',
        `${during.shopifyPointsPerSecond}, ${during.shopifyBucketUse}`,
        null,
        null,
      ],
      [
        `approval -> Shopify, review leaves updatedAt (${f.approvals})`,
        cell(f.approval),
        null,
        `p95 <= ${f.targets.approvalP95Ms}: ${met(f.approval)}`,
      ],
      [
        `approval -> Shopify, review moves updatedAt (${f.approvals})`,
        cell(f.approvalReviewMovesUpdatedAt),
        null,
        `p95 <= ${f.targets.approvalP95Ms}: ${met(f.approvalReviewMovesUpdatedAt)}`,
      ],
      [
        "poll's share of the budget, approvals",
        shareCell(f.pollBudget.approvals),
        null,
        shareMet(f.pollBudget.approvals),
      ],
      [
        "poll's share of the budget, during the edits (b)",
        shareCell(f.pollBudget.duringResync),
        null,
        shareMet(f.pollBudget.duringResync),
      ],
      [
        "poll's share of the budget, since the resync began",
        shareCell(f.pollBudget.sinceResyncStart),
        null,
        null,
      ],
      [
        "poll's share, whole run (the connector's page)",
        reported
          ? `${reported.share} of ${reported.windowSeconds} s, bound ${reported.bound}`
          : 'not reported',
        null,
        null,
      ],
      [
        'poll / early poll / watchlist interval ms',
        `${f.pollIntervalMs} / ${f.activePollIntervalMs ?? '-'} / ${f.watchlistIntervalMs}`,
        null,
        null,
      ],
    ],
  };
}
