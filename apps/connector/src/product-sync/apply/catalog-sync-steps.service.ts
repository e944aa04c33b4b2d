import { Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { CatalogClients } from '../../clients/catalog/catalog-clients.service.js';
import { ShopMappings } from '../../mapping/shop-mappings.service.js';
import type { ValidatedMapping } from '../../mapping/validated-mapping.js';
import { SyncSettings } from '../../platform/config/settings.js';
import { PermanentJobError } from '../../platform/failures/job-error.js';
import { ShopModes } from '../../shops/shop-modes.service.js';
import { gapSummary, productGapReasons } from '../gaps/gap-reasons.js';
import { MappingGapsRepository } from '../gaps/mapping-gaps.repository.js';
import { type CanonicalProduct, planDeletion, planSync, type SyncPlan } from '../plan/index.js';
import { type PlannedWrite, PlannedWritesRepository } from '../planned/planned-writes.repository.js';
import { ScopeGate } from '../scope/scope-gate.service.js';
import { SkuMapRepository, storedRecordsOf } from '../sku-map/sku-map.repository.js';
import { SkuMapRow } from '../sku-map/sku-map-row.entity.js';
import { goneMappedRecords } from './mapped-records-check.js';
import { type DeletedRows, executePlan, RecordGone } from './plan-executor.js';
import { plannedCatalogWrites } from './planned-catalog-writes.js';
import { ShopCurrencies } from './shop-currencies.service.js';
import type { SyncApplied, SyncChange, SyncRun } from './sync-run.js';
import type { SyncSubject } from './sync-subject.js';

/**
 * A dry run's sink: a sync given one plans exactly as in `shadow` (the same code), hands the
 * plan's calls to it, and sends and stores nothing (no sku map row, no planned write).
 */
export type DryRunSink = (writes: PlannedWrite[]) => void;

/** A record found gone is recreated in the same run; more than this many in one run is a failure. */
const MAX_GONE_PER_RUN = 3;

/**
 * Why: the catalog side of a product sync, in one place: read the product's sku map rows, plan against them (`planSync`, or
 * `planDeletion`), make the calls in the crash-safe order (`executePlan`). A record found gone
 * from the catalog is marked so and recreated at once; a plan that cannot be honoured (more than
 * 200 variants under the `fail` large-product policy, a required attribute missing) is a
 * permanent failure, never a half sync. A shop in `shadow` plans the same way but sends nothing
 * and changes no sku map row: the plan's calls replace the product's planned writes (issue 31).
 * A dry run (`dryRun`, any mode) plans the same way and hands the calls to its sink instead.
 * Every plan but a dry run's records the product's mapping gaps in words (`mapping_gaps`); a
 * product removed or left out of scope has none.
 */
@Injectable()
export class CatalogSyncSteps {
  constructor(
    private readonly map: SkuMapRepository,
    private readonly mappings: ShopMappings,
    private readonly clients: CatalogClients,
    private readonly currencies: ShopCurrencies,
    private readonly settings: SyncSettings,
    private readonly scope: ScopeGate,
    private readonly modes: ShopModes,
    private readonly planned: PlannedWritesRepository,
    private readonly gaps: MappingGapsRepository,
    private readonly clock: Clock,
  ) {}

  async apply(
    subject: SyncSubject,
    change: SyncChange,
    run: SyncRun,
    dryRun?: DryRunSink,
  ): Promise<SyncApplied> {
    const mapping = this.mappings.mapping(subject.shop);
    if (!mapping) return { result: 'skipped', detail: 'the shop has no mapping file: nothing is sent' };
    if (change.kind === 'delete') return this.remove(subject, run, 'tombstone', null, dryRun);
    const verdict = await this.scope.verdict(subject.shop, change.product, mapping.file.scope);
    if (!verdict.inScope) {
      // Out of scope (a status not synced, or the mapping's scope): the leaving policy applies.
      if (this.settings.leavingStatuses === 'keep') {
        if (!dryRun) await this.gaps.clearProduct(subject.shop, subject.productId);
        return { result: 'skipped', detail: `${verdict.reason}: out of scope, the catalog records are kept` };
      }
      return this.remove(
        subject,
        run,
        'forget',
        `${verdict.reason}: out of scope, the catalog records are deleted`,
        dryRun,
      );
    }
    for (let gone = 0; ; gone += 1) {
      try {
        return await this.upsert(subject, change.product, mapping, run, dryRun);
      } catch (error) {
        if (!(error instanceof RecordGone) || gone >= MAX_GONE_PER_RUN) throw error;
        run.events.push(`${error.message}: recreated`);
      }
    }
  }

  private async upsert(
    subject: SyncSubject,
    product: CanonicalProduct,
    mapping: ValidatedMapping,
    run: SyncRun,
    dryRun: DryRunSink | undefined,
  ): Promise<SyncApplied> {
    const rows = await this.verified(
      subject,
      run,
      dryRun,
      await this.map.rowsOfProduct(subject.shop, subject.productId),
    );
    const stored = storedRecordsOf(rows);
    const strategy = mapping.file.supplierSku.strategy;
    const candidates = product.variants.map((v) => (v.sku ?? '').trim()).filter((sku) => sku !== '');
    const plan = planSync({
      shop: { domain: subject.shop, currencyCode: await this.currencyFor(subject.shop, mapping) },
      product,
      mapping,
      stored,
      takenSupplierSkus:
        strategy === 'variant-sku' ? await this.map.takenSupplierSkus(subject.shop, candidates) : undefined,
      largeProducts: this.settings.largeProducts,
    });
    if (!dryRun) {
      const reasons = productGapReasons(plan);
      await this.gaps.record(
        subject.shop,
        subject.productId,
        product.title,
        reasons,
        new Date(this.clock.now()),
      );
    }
    if (plan.status === 'failed' && plan.failure) {
      throw new PermanentJobError(plan.failure.code.replaceAll('-', '_'), plan.failure.message);
    }
    const shadow = await this.shadowed(subject, plan, rows, run, dryRun);
    if (shadow !== null) return { result: plan.calls.length > 0 ? 'applied' : 'unchanged', detail: shadow };
    await executePlan(plan, {
      subject,
      run,
      client: this.clients.forShop(subject.shop).client,
      map: this.map,
      rows,
      notes: plan.notes,
      deletedRows: 'tombstone',
    });
    return { result: plan.calls.length > 0 ? 'applied' : 'unchanged', detail: gapSummary(plan.gaps) };
  }

  /**
   * An operator's sync (reason `operator`) and its dry run check first that the product's mapped
   * records exist (`goneMappedRecords`): one found gone is marked so and recreated by the plan;
   * a dry run (or a shop in shadow) marks it in its own copy of the rows only, and so plans the
   * create live sends.
   */
  private async verified(
    subject: SyncSubject,
    run: SyncRun,
    dryRun: DryRunSink | undefined,
    rows: SkuMapRow[],
  ): Promise<SkuMapRow[]> {
    if (run.reason !== 'operator') return rows;
    const client = this.clients.forShop(subject.shop).client;
    const gone = await goneMappedRecords(client, rows, run, dryRun !== undefined);
    if (gone.length === 0) return rows;
    // A dry run, or a shop in shadow, changes no sku map row: the plan alone sees them gone.
    const planOnly = dryRun !== undefined || (await this.modes.modeOf(subject.shop)) === 'shadow';
    for (const row of gone) {
      run.events.push(
        `${row.supplierSku} (skuId ${row.skuId}) is gone from the catalog: planned as a create`,
      );
      if (!planOnly) await this.map.markGone(subject.shop, row.supplierSku);
    }
    if (!planOnly) return this.map.rowsOfProduct(subject.shop, subject.productId);
    const goneSkus = new Set(gone.map((row) => row.supplierSku));
    return rows.map((row) =>
      goneSkus.has(row.supplierSku)
        ? Object.assign(new SkuMapRow(), row, { state: 'gone-from-catalog', skuId: null })
        : row,
    );
  }

  private async remove(
    subject: SyncSubject,
    run: SyncRun,
    deletedRows: DeletedRows,
    detail: string | null,
    dryRun: DryRunSink | undefined,
  ): Promise<SyncApplied> {
    if (!dryRun) await this.gaps.clearProduct(subject.shop, subject.productId);
    const rows = await this.map.rowsOfProduct(subject.shop, subject.productId);
    const stored = storedRecordsOf(rows);
    if (stored.length === 0) {
      dryRun?.([]);
      return { result: 'unchanged', detail };
    }
    const plan = planDeletion(stored);
    const shadow = await this.shadowed(subject, plan, rows, run, dryRun);
    if (shadow !== null) return { result: 'applied', detail: shadow };
    await executePlan(plan, {
      subject,
      run,
      client: this.clients.forShop(subject.shop).client,
      map: this.map,
      rows,
      notes: [],
      deletedRows,
    });
    return { result: 'applied', detail };
  }

  /**
   * In `shadow`: the plan's calls become the product's planned writes, nothing is sent, and the
   * run's detail is returned; a dry run: the same calls go to its sink alone; in `live`: null.
   */
  private async shadowed(
    subject: SyncSubject,
    plan: SyncPlan,
    rows: readonly SkuMapRow[],
    run: SyncRun,
    dryRun: DryRunSink | undefined,
  ): Promise<string | null> {
    if (dryRun) {
      const writes = plannedCatalogWrites(plan, rows);
      dryRun(writes);
      const detail = `dry run: ${writes.length} catalog call(s) planned, none sent`;
      run.events.push(detail);
      return detail;
    }
    if ((await this.modes.modeOf(subject.shop)) !== 'shadow') {
      // Live: a plan made in shadow (even by a run that ended after the switch) is superseded by this one.
      await this.planned.clearProduct(subject.shop, subject.productId, 'write-back');
      return null;
    }
    const writes = plannedCatalogWrites(plan, rows);
    await this.planned.replace(subject.shop, subject.productId, 'sync', writes, new Date(this.clock.now()));
    const detail = `shadow: ${writes.length} catalog call(s) planned, none sent`;
    run.events.push(detail);
    return detail;
  }

  private async currencyFor(shop: string, mapping: ValidatedMapping): Promise<string | null> {
    const entries = [...mapping.productEntries, ...mapping.variantEntries];
    return entries.some((entry) => entry.currency === 'shop') ? this.currencies.of(shop) : null;
  }
}
