import { Injectable, Logger } from '@nestjs/common';
import { CatalogClients } from '../clients/catalog/catalog-clients.js';
import { ShopMappings } from '../mapping/shop-mappings.js';
import { shopHandle } from '../product-sync/plan/index.js';
import { SkuMapLinks } from '../product-sync/sku-map/sku-map-links.js';
import type { SkuMapRow } from '../product-sync/sku-map/sku-map-row.entity.js';
import { WrittenBackValues } from '../product-sync/written-back-values.js';
import { type DriftMapRow, findDrift } from './model/find-drift.js';
import { readDriftCatalog } from './read/drift-catalog.js';
import { DriftShopifyReader } from './read/drift-shopify.js';
import { DriftReportsRepository, type RecordedDriftReport } from './store/drift-reports.repository.js';

/**
 * Why: one drift report of a shop, end to end: the map's rows and the records every shop of the
 * catalog key claims are read first (a record a sync creates meanwhile then has its intent, and
 * its supplierSku, claimed), then Shopify's products (bulk or pages) and the whole catalog
 * account (keyset pages of 500 at `bulk` priority), compared, and stored beside the shop's
 * previous report, with the written-back values the write-back finds disagreeing (edited by a
 * merchant, or no longer approved). It only reads and reports: repairs wait for an operator's choice.
 */
@Injectable()
export class DriftService {
  private readonly logger = new Logger('DriftService');

  constructor(
    private readonly catalogs: CatalogClients,
    private readonly links: SkuMapLinks,
    private readonly mappings: ShopMappings,
    private readonly shopify: DriftShopifyReader,
    private readonly reports: DriftReportsRepository,
    private readonly writtenBack: WrittenBackValues,
  ) {}

  /** Runs and stores one report of `shop`. */
  async report(shop: string): Promise<RecordedDriftReport> {
    const account = this.catalogs.forShop(shop);
    const rows = await this.links.liveRows(shop);
    const claimed = await this.links.claimedRecords(account.shops);
    const shopify = await this.shopify.read(shop, new Set(rows.map((r) => r.shopifyProductId)).size);
    const catalog = await readDriftCatalog(account.client);
    const prefix = this.mappings.mapping(shop)?.file.supplierSku.prefix ?? shopHandle(shop);
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
