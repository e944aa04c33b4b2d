import { Injectable } from '@nestjs/common';
import type { DriftReport } from '../../drift/store/drift-report.entity.js';
import { DriftReportsRepository } from '../../drift/store/drift-reports.repository.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { SyncRecords } from '../../product-sync/sync-records.repository.js';
import { ResyncService } from '../../resync/resync.service.js';
import type { ResyncRun, ResyncScope } from '../../resync/resync-run.entity.js';
import type { RunOutcomeCounts } from '../../resync/resync-run-outcomes.repository.js';
import { ResyncRunsRepository } from '../../resync/resync-runs.repository.js';
import { csvText } from '../admin/csv-writer.js';
import {
  driftFindingLine,
  driftRunSummary,
  ERROR_REPORT_HEADER,
  kindOfRun,
  type RunErrorLine,
  resyncRunSummary,
} from './run-summaries.js';
import { RUN_KINDS, type RunKind, type RunSummaryDto } from './runs.dto.js';

const RUN_ID = /^[1-9]\d{0,17}$/;
/** An error report holds at most this many lines (a whole shop failing is still one download). */
const MAX_REPORT_LINES = 100_000;
const SCOPES: Readonly<Record<'resync' | 'reconcile', readonly ResyncScope[]>> = {
  resync: ['product', 'shop'],
  reconcile: ['reconcile'],
};

/** A run found by kind and id: a resync run (resyncs and reconciliations) or a drift report. */
type FoundRun = { kind: 'resync' | 'reconcile'; run: ResyncRun } | { kind: 'drift'; report: DriftReport };

/**
 * Why: operators read a shop's runs the way Airbyte and Akeneo show them: each resync,
 * reconciliation and drift report, newest first, with its counts (created, updated, deleted,
 * failed, skipped; a drift report's findings) and an error report to download. The runs have two
 * owners (resync runs, drift reports); this lists them as one history, and writes the reports.
 */
@Injectable()
export class RunHistory {
  constructor(
    private readonly runs: ResyncRunsRepository,
    private readonly resync: ResyncService,
    private readonly drift: DriftReportsRepository,
    private readonly syncRecords: SyncRecords,
  ) {}

  /** The newest runs first, of one shop and kind when given, at most `limit`. */
  async list(filter: { shop: string | null; kind: RunKind | null; limit: number }): Promise<RunSummaryDto[]> {
    const scopes =
      filter.kind === null
        ? [...SCOPES.resync, ...SCOPES.reconcile]
        : filter.kind === 'drift'
          ? []
          : SCOPES[filter.kind];
    const [resyncs, reports] = await Promise.all([
      scopes.length === 0 ? [] : this.runs.latest({ shop: filter.shop, scopes }, filter.limit),
      filter.kind === null || filter.kind === 'drift'
        ? this.drift.list(filter.shop ?? undefined, filter.limit)
        : [],
    ]);
    const settled = await Promise.all(resyncs.map((run) => this.settled(run)));
    const [counts, tallies] = await Promise.all([
      this.runs.outcomes.counts(settled.map((run) => run.id)),
      this.drift.tallies(reports.map((report) => report.id)),
    ]);
    const items = [
      ...settled.map((run) => resyncRunSummary(run, countsOf(counts, run.id))),
      ...reports.map((report) => driftRunSummary(report, tallies.get(report.id) ?? { new: 0, repaired: 0 })),
    ];
    return items
      .sort((a, b) => b.startedAt.localeCompare(a.startedAt) || Number(b.id) - Number(a.id))
      .slice(0, filter.limit);
  }

  /** One run and the first `limit` lines of its error report (the web view's run page). */
  async run(
    kind: string,
    id: string,
    limit: number,
  ): Promise<{ summary: RunSummaryDto; errors: RunErrorLine[] }> {
    const found = await this.find(kind, id);
    return { summary: await this.summaryOf(found), errors: await this.errorLines(found, limit) };
  }

  /** A run's error report as CSV: one line per failed product (a drift report: per finding). */
  async errorReport(kind: string, id: string): Promise<{ filename: string; csv: string }> {
    const found = await this.find(kind, id);
    const lines = await this.errorLines(found, MAX_REPORT_LINES);
    const shop = found.kind === 'drift' ? found.report.shop : found.run.shop;
    return {
      filename: `${shop}-${found.kind}-${id}-errors.csv`,
      csv: csvText(
        ERROR_REPORT_HEADER,
        lines.map((line) => [
          line.productId,
          line.title,
          line.code,
          line.error,
          line.at?.toISOString() ?? null,
        ]),
      ),
    };
  }

  private async summaryOf(found: FoundRun): Promise<RunSummaryDto> {
    if (found.kind === 'drift') {
      const tally = (await this.drift.tallies([found.report.id])).get(found.report.id);
      return driftRunSummary(found.report, tally ?? { new: 0, repaired: 0 });
    }
    const run = await this.settled(found.run);
    return resyncRunSummary(run, countsOf(await this.runs.outcomes.counts([run.id]), run.id));
  }

  private async errorLines(found: FoundRun, limit: number): Promise<RunErrorLine[]> {
    if (found.kind !== 'drift') {
      return (await this.runs.outcomes.failedProducts(found.run.id, limit)).map((product) => ({
        productId: product.productId,
        title: product.title,
        code: product.errorCode ?? 'unknown',
        error:
          product.errorMessage ??
          'The sync left no record of its failure: see the failures inbox for this product.',
        at: product.failedAt,
      }));
    }
    const { report } = found;
    const rows = (await this.drift.findingsOf(report.id)).slice(0, limit);
    const ids = rows.flatMap((row) => (row.finding.productId === null ? [] : [row.finding.productId]));
    const titles = await this.syncRecords.titles(report.shop, ids);
    return rows.map((row) =>
      driftFindingLine(row, titles.get(row.finding.productId ?? '') ?? null, report.createdAt),
    );
  }

  /** The run of `kind` with `id`; 404 when there is none (or it is of another kind). */
  private async find(kind: string, id: string): Promise<FoundRun> {
    const known = (RUN_KINDS as readonly string[]).includes(kind) ? (kind as RunKind) : null;
    if (known !== null && RUN_ID.test(id)) {
      if (known === 'drift') {
        const report = await this.drift.report(id);
        if (report) return { kind: known, report };
      } else {
        const run = await this.runs.get(id);
        if (run && kindOfRun(run) === known) return { kind: known, run };
      }
    }
    const what = known === null ? `No run of kind ${kind}` : `No ${known} run ${id}`;
    throw new ConnectorError(ConnectorErrorCode.NOT_FOUND, `${what}.`, { kind, id });
  }

  /**
   * A running run whose walk is over and whose products all reported is ended as its own page
   * would end it (`ResyncService.show`): the history shows it done, with its end.
   */
  private async settled(run: ResyncRun): Promise<ResyncRun> {
    if (run.state !== 'running' || !run.walkDone) return run;
    await this.resync.show(run.id);
    return (await this.runs.get(run.id)) ?? run;
  }
}

/** A run's counts from a page of them (zeros for a run without products). */
function countsOf(counts: ReadonlyMap<string, RunOutcomeCounts>, id: string): RunOutcomeCounts {
  return (
    counts.get(id) ?? { listed: 0, created: 0, updated: 0, deleted: 0, failed: 0, skipped: 0, waiting: 0 }
  );
}
