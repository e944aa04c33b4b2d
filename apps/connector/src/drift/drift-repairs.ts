import { Injectable, Logger } from '@nestjs/common';
import { CatalogClients } from '../clients/catalog/catalog-clients.js';
import { SyncEnqueuer } from '../intake/sync-enqueuer.js';
import { SkuMapRepository } from '../product-sync/sku-map/sku-map.repository.js';
import type { DriftFindingRow } from './store/drift-finding-row.entity.js';
import { DriftReportsRepository, type DriftSelection } from './store/drift-reports.repository.js';

/** What came of one chosen repair. */
export interface DriftRepairOutcome {
  findingId: string;
  kind: string;
  repair: string;
  /** `enqueued` (a resync), `deleted` (a record), `already-repaired`, `not-supported` (not built yet). */
  outcome: 'enqueued' | 'deleted' | 'already-repaired' | 'not-supported';
}

/**
 * Why: nothing found by a drift report is repaired until an operator chooses it (one finding, a
 * selection, or every finding of a kind). `resync` enqueues the product's sync (reason `drift`;
 * a gone record's row is marked gone first, so the sync recreates it; a value changed in the
 * catalog has its applied value forgotten first, so the sync sends it again);
 * `delete-record` deletes the orphan or duplicate from the catalog (a variant record as a
 * variant, never its parent product; at `bulk` priority, once:
 * a finding already repaired is left). `adopt` and `retract` are not built yet and say so.
 */
@Injectable()
export class DriftRepairs {
  private readonly logger = new Logger('DriftRepairs');

  constructor(
    private readonly reports: DriftReportsRepository,
    private readonly enqueuer: SyncEnqueuer,
    private readonly catalogs: CatalogClients,
    private readonly map: SkuMapRepository,
  ) {}

  /** Runs the chosen findings' repairs of one report; null when the report does not exist. */
  async repair(reportId: string, selection: DriftSelection): Promise<DriftRepairOutcome[] | null> {
    const report = await this.reports.report(reportId);
    if (!report) return null;
    const outcomes: DriftRepairOutcome[] = [];
    const resynced = new Set<string>();
    for (const row of await this.reports.findingsOf(report.id, selection)) {
      const outcome = row.repairedAt !== null ? 'already-repaired' : await this.apply(row, resynced);
      if (outcome !== 'already-repaired' && outcome !== 'not-supported') {
        await this.reports.markRepaired(row.id, outcome);
      }
      outcomes.push({ findingId: row.id, kind: row.kind, repair: row.finding.repair, outcome });
    }
    this.logger.log(`${report.shop}: drift report ${report.id}: ${outcomes.length} repair(s) chosen`);
    return outcomes;
  }

  private async apply(row: DriftFindingRow, resynced: Set<string>): Promise<DriftRepairOutcome['outcome']> {
    const { finding } = row;
    if (finding.repair === 'resync' && finding.productId !== null) {
      // A gone record's row is marked so (as a PATCH answered 404 would): the sync recreates it.
      if (finding.kind === 'record-gone' && finding.supplierSku !== null) {
        await this.map.markGone(row.shop, finding.supplierSku);
      }
      // A value changed in the catalog: its applied value is forgotten, so the sync sends it again.
      if (finding.kind === 'catalog-changed' && finding.supplierSku !== null && finding.field !== null) {
        await this.map.forgetApplied(row.shop, finding.supplierSku, finding.field);
      }
      // A product's findings (several fields, its records) need one sync.
      if (!resynced.has(finding.productId)) {
        resynced.add(finding.productId);
        await this.enqueuer.enqueue({ shop: row.shop, productId: finding.productId, reason: 'drift' });
      }
      return 'enqueued';
    }
    if (finding.repair === 'delete-record' && finding.skuId !== null) {
      const client = this.catalogs.forShop(row.shop).client;
      // A variant record is deleted as a variant: its parent product (and siblings) stay.
      if (finding.parentSkuId !== undefined) await client.deleteVariant(finding.skuId, { priority: 'bulk' });
      else await client.deleteProduct(finding.skuId, { priority: 'bulk' });
      return 'deleted';
    }
    return 'not-supported';
  }
}
