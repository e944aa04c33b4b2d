import { Injectable } from '@nestjs/common';
import { isCatalogClientError } from '#lib/catalog-client';
import type { ProductRecord } from '#lib/catalog-contract';
import { CatalogClients } from '../clients/catalog/catalog-clients.service.js';
import { SkuMapLinks } from '../product-sync/sku-map/sku-map-links.repository.js';
import { ShopModes } from '../shops/shop-modes.service.js';
import { DriftOwnership } from './drift-ownership.service.js';
import type { DriftFinding } from './model/drift-finding.js';

/** What the re-check decided: delete `record`, or not (and why; what would be lost). */
export type DeleteVerdict =
  | { delete: true; record: ProductRecord }
  | { delete: false; outcome: 'refused'; reason: string }
  | { delete: false; outcome: 'needs-confirmation'; reason: string; loses: string[] };

/**
 * Why: a catalog delete is for good (its enrichment too), and a report can be old: a
 * `delete-record` repair checks its finding again when it runs, against the catalog and the
 * whole sku map now, and is refused with the reason when the finding no longer holds. Refused:
 * a shop in shadow mode (nothing is written to the catalog from it); a record gone, or holding
 * another supplierSku; a record the map claims now (its skuId, or an orphan's supplierSku, by
 * any served shop's row); an orphan the connector cannot prove its own (`DriftOwnership`); a
 * duplicate whose claimed original no longer holds its supplierSku (it may be the only one
 * left). A record holding approved enrichment is deleted only when `confirmLoss` names it.
 */
@Injectable()
export class DriftDeleteCheck {
  constructor(
    private readonly catalogs: CatalogClients,
    private readonly links: SkuMapLinks,
    private readonly modes: ShopModes,
    private readonly ownership: DriftOwnership,
  ) {}

  async verdict(
    shop: string,
    finding: DriftFinding,
    confirmLoss: ReadonlySet<string>,
  ): Promise<DeleteVerdict> {
    const refused = (reason: string): DeleteVerdict => ({ delete: false, outcome: 'refused', reason });
    if ((await this.modes.modeOf(shop)) === 'shadow') {
      return refused('the shop is in shadow mode: nothing is deleted from the catalog');
    }
    const { skuId, supplierSku } = finding;
    if (skuId === null || supplierSku === null) return refused('the finding names no catalog record');
    const client = this.catalogs.forShop(shop).client;
    const variant = finding.parentSkuId !== undefined;
    const record = await (variant
      ? client.getVariant(skuId, { priority: 'bulk' })
      : client.getProduct(skuId, { priority: 'bulk' })
    ).catch((error: unknown) => {
      if (isCatalogClientError(error) && error.status === 404) return null;
      throw error;
    });
    if (record === null) return refused(`record ${skuId} no longer exists in the catalog`);
    if (record.supplierSku !== supplierSku) {
      return refused(`record ${skuId} holds supplierSku ${record.supplierSku} now, not ${supplierSku}`);
    }
    const claimed = await this.links.claimedRecords({ skuIds: [skuId], supplierSkus: [supplierSku] });
    if (claimed.skuIds.has(skuId)) return refused(`record ${skuId} is claimed by the sku map now`);
    if (finding.kind === 'orphan') {
      if (claimed.supplierSkus.has(supplierSku)) {
        return refused(`supplierSku ${supplierSku} is claimed by the sku map now (a create in progress)`);
      }
      const notOwn = await this.ownership.notOwnReason(shop, supplierSku, variant);
      if (notOwn !== null) return refused(notOwn);
    } else if (finding.kind === 'duplicate') {
      const others = (await client.findBySupplierSku(supplierSku, { priority: 'bulk' })).filter(
        (r) => r.skuId !== skuId,
      );
      const originals = await this.links.claimedRecords({
        skuIds: others.map((r) => r.skuId),
        supplierSkus: [],
      });
      if (!others.some((r) => originals.skuIds.has(r.skuId))) {
        return refused(
          `no record the sku map claims holds supplierSku ${supplierSku} now: record ${skuId} may be the only one left`,
        );
      }
    } else {
      return refused(`a ${finding.kind} finding is not deleted`);
    }
    const loses = approvedAttributes(record);
    if (loses.length > 0 && !confirmLoss.has(skuId)) {
      return {
        delete: false,
        outcome: 'needs-confirmation',
        loses,
        reason: `record ${skuId} holds approved enrichment (${loses.join(', ')}), lost for good with it: name ${skuId} in confirmLoss to delete it anyway`,
      };
    }
    return { delete: true, record };
  }
}

/** The keys of a record's attributes a person approved (`blame` ENRICHMENT_APPROVED). */
export function approvedAttributes(record: ProductRecord): string[] {
  return record.attributes.filter((a) => a.blame === 'ENRICHMENT_APPROVED').map((a) => a.key);
}
