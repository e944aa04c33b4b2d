import { Injectable, Logger } from '@nestjs/common';
import { CatalogClients } from '../clients/catalog/catalog-clients.service.js';
import { SyncEnqueuer } from '../intake/sync-enqueuer.service.js';
import { SkuMapRepository } from '../product-sync/sku-map/sku-map.repository.js';
import { type RecordLink, SkuMapLinks } from '../product-sync/sku-map/sku-map-links.repository.js';
import { WrittenBackValues } from '../product-sync/written-back-values.service.js';
import { ShopModes } from '../shops/shop-modes.service.js';
import { DriftDeleteCheck } from './drift-delete-check.service.js';
import { repairEffect } from './drift-repair-effect.js';
import type { DriftFinding } from './model/drift-finding.js';
import type { DriftFindingRow } from './store/drift-finding-row.entity.js';
import { DriftReportsRepository, type DriftSelection } from './store/drift-reports.repository.js';

/** What came of one chosen repair. */
export interface DriftRepairOutcome {
  findingId: string;
  kind: string;
  repair: string;
  /**
   * `enqueued` (a resync), `deleted` (a record), `adopted` (an orphan linked to its product, whose
   * sync is enqueued), `retracted` (a written-back value taken out of Shopify), `accepted` (a
   * merchant's edit kept, the product's sync enqueued), `already-repaired`, `not-adoptable` (see
   * `reason`), `refused` (see `reason`: a repair in shadow mode that would write, a finding that
   * no longer holds when re-checked, an orphan to `review` whose owner cannot be proven),
   * `needs-confirmation` (a delete of a record holding approved enrichment: `loses` names it; sent
   * again with the record's skuId in `confirmLoss`), `preview` (nothing ran: `effect` says what
   * would), `failed` (the repair ran and did not take; see `reason`), `not-supported` (a finding
   * stored without what its repair needs).
   */
  outcome:
    | 'enqueued'
    | 'deleted'
    | 'adopted'
    | 'retracted'
    | 'accepted'
    | 'already-repaired'
    | 'not-adoptable'
    | 'refused'
    | 'needs-confirmation'
    | 'preview'
    | 'failed'
    | 'not-supported';
  /** Why a repair was not made, when it was not. */
  reason?: string;
  /** What a repair does (or, in a preview, would do) beyond its name, when there is more to say. */
  effect?: string;
  /** A delete's approved enrichment that would be lost (the attribute keys), when confirmation is needed. */
  loses?: string[];
  /** The record a `needs-confirmation` delete is about (what `confirmLoss` names). */
  skuId?: string;
}

/** How a repair request runs: `preview` runs nothing; `confirmLoss` names records whose approved enrichment may go. */
export interface DriftRepairOptions {
  preview?: boolean;
  confirmLoss?: readonly string[];
}

/** Outcomes that leave the finding open (nothing was repaired). */
const NOT_REPAIRED: ReadonlySet<DriftRepairOutcome['outcome']> = new Set([
  'already-repaired',
  'not-adoptable',
  'refused',
  'needs-confirmation',
  'preview',
  'failed',
  'not-supported',
]);

/**
 * Why: nothing found by a drift report is repaired until an operator chooses it (one finding, a
 * selection, or every finding of a kind). `resync` enqueues the product's sync (reason `drift`;
 * a gone record's row is marked gone first, so the sync recreates it; a value changed in the
 * catalog has its applied value forgotten first, so the sync sends it again);
 * `delete-record` deletes the orphan or duplicate from the catalog (a variant record as a
 * variant, never its parent product; at `bulk` priority, once: a finding already repaired is
 * left), after `DriftDeleteCheck` re-checked it against the catalog and the whole map now (and
 * refused it with the reason when it no longer holds, in shadow mode, or, for a record holding
 * approved enrichment, without `confirmLoss` naming it). `review` (an orphan whose owner cannot
 * be proven) is always refused with that reason: nothing is deleted on a guess. `adopt` claims
 * an orphan whose derived supplierSku names a product Shopify still has
 * (`<prefix>:product:<id>`): a live map row for that product is written with the record's skuId
 * (as link does, empty snapshot so the sync sends every mapped value), with a row per orphan
 * variant record whose derived supplierSku names a variant (`<prefix>:variant:<id>`: a product
 * with options), and the product's sync enqueued; an orphan that cannot be claimed (no such
 * product, a variant record chosen without its parent's, the product is mapped already, or a
 * row of any shop claims the record since the report) answers `not-adoptable` with the reason.
 * `retract` (a value the catalog no longer approves) runs the product's write-back now, which
 * takes the value out of Shopify; `accept-merchant` (a merchant's edit of a written-back value)
 * records the edit as the sync would (the target is the merchant's from then on) and enqueues
 * the product's sync (the catalog gets the merchant's value where it is mapped). Both go through
 * the write-back (`WrittenBackValues`) under the product's lock, and both are `refused` for a
 * shop in shadow mode (nothing of the write-back is stored or written there). `preview` runs
 * nothing and answers what each chosen repair would do (`effect`).
 */
@Injectable()
export class DriftRepairs {
  private readonly logger = new Logger('DriftRepairs');

  constructor(
    private readonly reports: DriftReportsRepository,
    private readonly enqueuer: SyncEnqueuer,
    private readonly catalogs: CatalogClients,
    private readonly map: SkuMapRepository,
    private readonly links: SkuMapLinks,
    private readonly modes: ShopModes,
    private readonly writtenBack: WrittenBackValues,
    private readonly deleteCheck: DriftDeleteCheck,
  ) {}

  /** Runs the chosen findings' repairs of one report; null when the report does not exist. */
  async repair(
    reportId: string,
    selection: DriftSelection,
    options: DriftRepairOptions = {},
  ): Promise<DriftRepairOutcome[] | null> {
    const report = await this.reports.report(reportId);
    if (!report) return null;
    const outcomes: DriftRepairOutcome[] = [];
    const resynced = new Set<string>();
    // An adopted product record takes its variant records along: those are chosen last.
    const chosen = [...(await this.reports.findingsOf(report.id, selection))].sort(
      (a, b) => Number(isVariantAdopt(a.finding)) - Number(isVariantAdopt(b.finding)),
    );
    // The report's adoptable orphan variant records by parent (a product with options).
    const variantsOf = new Map<string, DriftFindingRow[]>();
    if (chosen.some((row) => row.finding.repair === 'adopt')) {
      for (const row of await this.reports.findingsOf(report.id, { kind: 'orphan' })) {
        if (!isVariantAdopt(row.finding) || row.repairedAt !== null) continue;
        const parent = row.finding.parentSkuId as string;
        variantsOf.set(parent, [...(variantsOf.get(parent) ?? []), row]);
      }
    }
    const adopted = new Set<string>();
    const confirmLoss = new Set(options.confirmLoss ?? []);
    for (const row of chosen) {
      const effect = repairEffect(row.finding);
      let done: Answer =
        row.repairedAt !== null || adopted.has(row.id)
          ? { outcome: adopted.has(row.id) ? 'adopted' : 'already-repaired' }
          : options.preview === true
            ? { outcome: 'preview', effect: effect ?? `would ${row.finding.repair}` }
            : await this.apply(row, resynced, variantsOf, adopted, confirmLoss);
      // What a repair that ran did beyond its name (a gone record's recreation loses its enrichment).
      if (effect !== null && !NOT_REPAIRED.has(done.outcome)) done = { ...done, effect };
      if (!NOT_REPAIRED.has(done.outcome) && !adopted.has(row.id)) {
        await this.reports.markRepaired(row.id, done.outcome);
      }
      outcomes.push({ findingId: row.id, kind: row.kind, repair: row.finding.repair, ...done });
    }
    this.logger.log(`${report.shop}: drift report ${report.id}: ${outcomes.length} repair(s) chosen`);
    return outcomes;
  }

  private async apply(
    row: DriftFindingRow,
    resynced: Set<string>,
    variantsOf: ReadonlyMap<string, readonly DriftFindingRow[]>,
    adopted: Set<string>,
    confirmLoss: ReadonlySet<string>,
  ): Promise<Answer> {
    const { finding } = row;
    if (finding.repair === 'review') {
      return {
        outcome: 'refused',
        reason: `the connector cannot prove it owns record ${finding.skuId ?? '?'} (supplierSku ${finding.supplierSku ?? '?'}): it may be another shop's or tool's live record; look at it in the catalog`,
      };
    }
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
      return { outcome: 'enqueued' };
    }
    if (finding.repair === 'delete-record' && finding.skuId !== null) {
      const verdict = await this.deleteCheck.verdict(row.shop, finding, confirmLoss);
      if (!verdict.delete) {
        const { outcome, reason } = verdict;
        return verdict.outcome === 'needs-confirmation'
          ? { outcome, reason, loses: verdict.loses, skuId: finding.skuId }
          : { outcome, reason };
      }
      const client = this.catalogs.forShop(row.shop).client;
      // A variant record is deleted as a variant: its parent product (and siblings) stay.
      if (finding.parentSkuId !== undefined) await client.deleteVariant(finding.skuId, { priority: 'bulk' });
      else await client.deleteProduct(finding.skuId, { priority: 'bulk' });
      return { outcome: 'deleted' };
    }
    if (finding.repair === 'adopt') return this.adopt(row.shop, finding, variantsOf, adopted);
    if (finding.repair === 'retract' || finding.repair === 'accept-merchant') {
      return this.repairWrittenBack(row.shop, finding, resynced);
    }
    return { outcome: 'not-supported' };
  }

  /** Retracts a written-back value, or keeps a merchant's edit of one (then syncs the product). */
  private async repairWrittenBack(
    shop: string,
    finding: DriftFinding,
    resynced: Set<string>,
  ): Promise<Answer> {
    // The write-back's states and writes: never in shadow mode.
    if ((await this.modes.modeOf(shop)) === 'shadow') {
      return { outcome: 'refused', reason: 'the shop is in shadow mode: nothing is written to Shopify' };
    }
    const { productId, ownerId, field: attribute, target } = finding;
    if (productId === null || ownerId === undefined || attribute === null || target === undefined) {
      return { outcome: 'not-supported', reason: 'the finding names no written-back target' };
    }
    const about = { productId, ownerId, attribute, target };
    if (finding.repair === 'retract') return this.writtenBack.retract(shop, about);
    const done = await this.writtenBack.accept(shop, about);
    if (done.outcome === 'accepted' && !resynced.has(productId)) {
      resynced.add(productId);
      await this.enqueuer.enqueue({ shop, productId, reason: 'drift' });
    }
    return done;
  }

  /**
   * Claims an orphan for the product its supplierSku names, with its orphan variant records (a
   * product with options: each variant record for the Shopify variant its supplierSku names),
   * then syncs that product: the sync updates what was claimed, creates the records of variants
   * nothing claimed, and deletes those of variants Shopify no longer has.
   */
  private async adopt(
    shop: string,
    finding: DriftFinding,
    variantsOf: ReadonlyMap<string, readonly DriftFindingRow[]>,
    adopted: Set<string>,
  ): Promise<Answer> {
    const refusal = adoptRefusal(finding);
    if (refusal !== null) return { outcome: 'not-adoptable', reason: refusal };
    const { productId, skuId, supplierSku } = finding as AdoptableFinding;
    const variants = variantsOf.get(skuId) ?? [];
    // Checked again now: a record another shop's row (any key) claims since the report is not taken.
    const skuIds = [skuId, ...variants.map((v) => v.finding.skuId as string)];
    const taken = (await this.links.claimedRecords({ skuIds, supplierSkus: [] })).skuIds;
    if (taken.size > 0) {
      return {
        outcome: 'not-adoptable',
        reason: `record ${[...taken].join(', ')} is claimed by the sku map now`,
      };
    }
    const own: RecordLink = {
      kind: variants.length > 0 ? 'parent' : 'simple',
      shopifyVariantId: null,
      supplierSku,
      parentSupplierSku: null,
      skuId,
      snapshot: {},
    };
    const links = variants.map(
      ({ finding: v }): RecordLink => ({
        kind: 'variant',
        shopifyVariantId: (v.supplierSku as string).slice((v.supplierSku as string).lastIndexOf(':') + 1),
        supplierSku: v.supplierSku as string,
        parentSupplierSku: supplierSku,
        skuId: v.skuId as string,
        snapshot: {},
      }),
    );
    const linked = await this.links.link(shop, productId, [own, ...links]);
    if (!linked) {
      return { outcome: 'not-adoptable', reason: `product ${productId} is in the sku map already` };
    }
    for (const variant of variants) {
      await this.reports.markRepaired(variant.id, 'adopted');
      adopted.add(variant.id);
    }
    await this.enqueuer.enqueue({ shop, productId, reason: 'drift' });
    return { outcome: 'adopted' };
  }
}

type Answer = Pick<DriftRepairOutcome, 'outcome' | 'reason' | 'effect' | 'loses' | 'skuId'>;
type AdoptableFinding = DriftFinding & { productId: string; skuId: string; supplierSku: string };

/** An orphan variant record adopted with its parent's product (never on its own). */
function isVariantAdopt(finding: DriftFinding): boolean {
  return finding.repair === 'adopt' && finding.parentSkuId !== undefined;
}

/**
 * Why: an orphan is adopted only when nothing is guessed: it names a product of the shop, and it
 * is a product's own record (a variant record goes with its parent's). Null: adoptable.
 */
export function adoptRefusal(finding: DriftFinding): string | null {
  if (finding.kind !== 'orphan') return `a ${finding.kind} finding is not an orphan`;
  if (finding.skuId === null || finding.supplierSku === null) return 'the finding names no catalog record';
  if (finding.parentSkuId !== undefined) {
    return `record ${finding.skuId} is a variant of ${finding.parentSkuId}: adopt its parent's record, which takes it along`;
  }
  if (finding.productId === null) {
    return `supplierSku ${finding.supplierSku} names no product of this shop in Shopify`;
  }
  return null;
}
