import { Injectable, Logger } from '@nestjs/common';
import { CatalogClients } from '../clients/catalog/catalog-clients.service.js';
import { SkuMapLinks } from '../product-sync/sku-map/sku-map-links.repository.js';
import type { SkuMapRow } from '../product-sync/sku-map/sku-map-row.entity.js';
import { WrittenBackValues } from '../product-sync/written-back-values.service.js';
import { DriftOwnership } from './drift-ownership.service.js';
import { type DriftMapRow, findDrift } from './model/find-drift.js';
import { readDriftCatalog } from './read/drift-catalog.js';
import { DriftShopifyReader } from './read/drift-shopify.service.js';
import { DriftReportsRepository, type RecordedDriftReport } from './store/drift-reports.repository.js';

/**
 * Why: one drift report of a shop, end to end: the shop's map rows, Shopify's products (bulk or
 * pages) and the whole catalog account (keyset pages of 500 at `bulk` priority) are read, then
 * the claims: every record a map row of any served shop holds (the whole map, whatever its
 * catalog key), read after the scan, so a record a sync created during the scan (a variant added
 * to a mapped product) is claimed, never an orphan. Compared, and stored beside the shop's
 * previous report, with the written-back values the write-back finds disagreeing (edited by a
 * merchant, or no longer approved). It only reads and reports: repairs wait for an operator's
 * choice, and re-check their finding when they run.
 */
@Injectable()
export class DriftService {
  private readonly logger = new Logger('DriftService');

  constructor(
    private readonly catalogs: CatalogClients,
    private readonly links: SkuMapLinks,
    private readonly shopify: DriftShopifyReader,
    private readonly reports: DriftReportsRepository,
    private readonly writtenBack: WrittenBackValues,
    private readonly ownership: DriftOwnership,
  ) {}

  /** Runs and stores one report of `shop`. */
  async report(shop: string): Promise<RecordedDriftReport> {
    const account = this.catalogs.forShop(shop);
    const rows = await this.links.liveRows(shop);
    const shopify = await this.shopify.read(shop, new Set(rows.map((r) => r.shopifyProductId)).size);
    const catalog = await readDriftCatalog(account.client);
    // After the scan: whatever a sync created or intended meanwhile is claimed.
    const claimed = await this.links.claimedRecords();
    const prefix = this.ownership.prefixOf(shop);
    const sharedPrefix = await this.ownership.prefixShared(shop, prefix);
    // What the write-back wrote, judged against the records just read (one Shopify read per
    // product holding a written-back value).
    const bySkuId = new Map(catalog.records.map((record) => [record.skuId, record]));
    const writtenBack = await this.writtenBack.compare(shop, bySkuId);
    const findings = findDrift({
      rows: rows.map(toDriftRow),
      claimed,
      catalog: catalog.records,
      shopify: shopify.products,
      writtenBack,
      prefix,
      sharedPrefix,
    });
    const recorded = await this.reports.record(shop, findings, {
      catalogSearches: catalog.searches,
      catalogRecords: catalog.records.length,
    });
    this.logger.log(
      `${shop}: drift report ${recorded.report.id}: ${findings.length} finding(s) (${recorded.new} new, ` +
        `${recorded.stillOpen} still open, ${recorded.resolved} resolved), ${catalog.searches} catalog search(es), Shopify read by ${shopify.read}`,
    );
    return recorded;
  }
}

function toDriftRow(row: SkuMapRow): DriftMapRow {
  return {
    productId: row.shopifyProductId,
    variantId: row.shopifyVariantId,
    kind: row.kind,
    supplierSku: row.supplierSku,
    skuId: row.skuId,
    state: row.state === 'tombstoned' ? 'gone-from-catalog' : row.state,
    snapshot: row.snapshot,
    shopifyUpdatedAt: row.shopifyUpdatedAt?.getTime() ?? null,
  };
}
