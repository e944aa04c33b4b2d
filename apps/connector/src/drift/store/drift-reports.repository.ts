import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, LessThan, type Repository } from 'typeorm';
import { Clock } from '#lib/clock';
import { DRIFT_KINDS, type DriftFinding, type DriftKind } from '../model/drift-finding.js';
import { DriftFindingRow } from './drift-finding-row.entity.js';
import { DriftReport } from './drift-report.entity.js';

/** A stored report with how it compares with the shop's previous one. */
export interface RecordedDriftReport {
  report: DriftReport;
  /** Findings the previous report did not have. */
  new: number;
  /** The previous report's findings this one no longer finds. */
  resolved: number;
  /** Findings the previous report had too. */
  stillOpen: number;
}

/** Which findings of a report an operator chose: by id, or every one of a kind. */
/** Rows of `metricCounts`. */
export interface DriftMetricCounts {
  open: Array<{ shop: string; kind: string; count: number }>;
  reports: Array<{ shop: string; count: number }>;
  repairs: Array<{ shop: string; kind: string; outcome: string; count: number }>;
}

export type DriftSelection = { ids: readonly string[] } | { kind: DriftKind };

/**
 * Why: the drift tables' one owner. A report is stored with its findings in one transaction,
 * compared by finding key with the shop's latest report before it (new, resolved, still open).
 */
@Injectable()
export class DriftReportsRepository {
  constructor(
    @InjectRepository(DriftReport) private readonly reports: Repository<DriftReport>,
    @InjectRepository(DriftFindingRow) private readonly findings: Repository<DriftFindingRow>,
    private readonly clock: Clock,
  ) {}

  /** Stores a report of `shop` and its findings, compared with the shop's previous report. */
  async record(
    shop: string,
    found: readonly DriftFinding[],
    cost: { catalogSearches: number; catalogRecords: number },
  ): Promise<RecordedDriftReport> {
    return this.reports.manager.transaction(async (manager) => {
      const reports = manager.getRepository(DriftReport);
      const rows = manager.getRepository(DriftFindingRow);
      const previous = await reports.findOne({ where: { shop }, order: { createdAt: 'DESC', id: 'DESC' } });
      const before = previous
        ? new Set(
            (await rows.find({ where: { reportId: previous.id }, select: { key: true } })).map((r) => r.key),
          )
        : new Set<string>();
      const now = new Set(found.map((f) => f.key));
      const counts = Object.fromEntries(DRIFT_KINDS.map((kind) => [kind, 0])) as Record<DriftKind, number>;
      for (const finding of found) counts[finding.kind] += 1;
      const report = await reports.save(
        reports.create({
          shop,
          createdAt: new Date(this.clock.now()),
          catalogSearches: cost.catalogSearches,
          catalogRecords: cost.catalogRecords,
          counts,
          previousId: previous?.id ?? null,
          resolved: [...before].filter((key) => !now.has(key)),
        }),
      );
      const stillOpen = found.filter((f) => before.has(f.key)).length;
      if (found.length > 0) {
        await rows.insert(
          found.map((finding) => ({
            reportId: report.id,
            shop,
            key: finding.key,
            kind: finding.kind,
            status: before.has(finding.key) ? ('still-open' as const) : ('new' as const),
            finding,
            repairedAt: null,
            repairOutcome: null,
          })),
        );
      }
      return { report, new: found.length - stillOpen, resolved: report.resolved.length, stillOpen };
    });
  }

  /** One report, or null. */
  async report(id: string): Promise<DriftReport | null> {
    return /^\d+$/.test(id) ? this.reports.findOneBy({ id }) : null;
  }

  /** The newest reports first, of one shop or every shop, at most `limit`. */
  async list(shop: string | undefined, limit: number): Promise<DriftReport[]> {
    return this.reports.find({
      where: shop === undefined ? {} : { shop },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
    });
  }

  /** Per report, its findings new since the previous report and those repaired since (the run history). */
  async tallies(reportIds: readonly string[]): Promise<Map<string, { new: number; repaired: number }>> {
    const tallies = new Map(reportIds.map((id) => [id, { new: 0, repaired: 0 }]));
    if (reportIds.length === 0) return tallies;
    const rows: Array<{ id: string; new: number; repaired: number }> = await this.findings.query(
      `SELECT report_id::text AS id, count(*) FILTER (WHERE status = 'new')::int AS new,
              count(*) FILTER (WHERE repaired_at IS NOT NULL)::int AS repaired
         FROM ${this.findings.metadata.tablePath} WHERE report_id = ANY($1::bigint[]) GROUP BY report_id`,
      [[...reportIds]],
    );
    for (const row of rows) tallies.set(row.id, { new: row.new, repaired: row.repaired });
    return tallies;
  }

  /** The shop's latest report, or null. */
  async latest(shop: string): Promise<DriftReport | null> {
    return this.reports.findOne({ where: { shop }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /** A report's findings in the order found, all of them or an operator's selection. */
  async findingsOf(reportId: string, selection?: DriftSelection): Promise<DriftFindingRow[]> {
    const where =
      selection === undefined
        ? { reportId }
        : 'kind' in selection
          ? { reportId, kind: selection.kind }
          : { reportId, id: In(selection.ids.filter((id) => /^\d+$/.test(id))) };
    return this.findings.find({ where, order: { id: 'ASC' } });
  }

  /** Records that a finding's repair ran, and what came of it. */
  async markRepaired(findingId: string, outcome: string): Promise<void> {
    await this.findings.update(
      { id: findingId },
      { repairedAt: new Date(this.clock.now()), repairOutcome: outcome },
    );
  }

  /** The repaired findings about a Shopify product, latest repair first (its timeline). */
  async repairsOfProduct(shop: string, productId: string, limit: number): Promise<DriftFindingRow[]> {
    return this.findings
      .createQueryBuilder('f')
      .where('f.shop = :shop', { shop })
      .andWhere("f.finding->>'productId' = :productId", { productId })
      .andWhere('f.repaired_at IS NOT NULL')
      .orderBy('f.repaired_at', 'DESC')
      .limit(limit)
      .getMany();
  }

  /**
   * What `/metrics` shows of drift, across replicas: each shop's latest report's findings not
   * repaired, by kind; the reports kept per shop; the repaired findings by shop, kind and outcome.
   */
  async metricCounts(): Promise<DriftMetricCounts> {
    const [findings, reports] = [this.findings.metadata.tablePath, this.reports.metadata.tablePath];
    const open: Array<{ shop: string; kind: string; count: number }> = await this.findings.query(
      `SELECT f.shop, f.kind, count(*)::int AS count FROM ${findings} f
         JOIN (SELECT DISTINCT ON (shop) id FROM ${reports} ORDER BY shop, created_at DESC, id DESC) l
           ON f.report_id = l.id
        WHERE f.repaired_at IS NULL GROUP BY f.shop, f.kind`,
    );
    const kept: Array<{ shop: string; count: number }> = await this.reports.query(
      `SELECT shop, count(*)::int AS count FROM ${reports} GROUP BY shop`,
    );
    const repairs: Array<{ shop: string; kind: string; outcome: string; count: number }> =
      await this.findings.query(
        `SELECT shop, kind, repair_outcome AS outcome, count(*)::int AS count FROM ${findings}
          WHERE repaired_at IS NOT NULL GROUP BY shop, kind, repair_outcome`,
      );
    return { open, reports: kept, repairs };
  }

  /** Retention: deletes reports (and their findings) created before `cutoff`; resolves to how many. */
  async pruneBefore(cutoff: Date): Promise<number> {
    return (await this.reports.delete({ createdAt: LessThan(cutoff) })).affected ?? 0;
  }

  /** `shop/redact`: deletes every report of the shop and its findings; resolves to how many reports. */
  async purgeShop(shop: string): Promise<number> {
    return (await this.reports.delete({ shop })).affected ?? 0;
  }
}
