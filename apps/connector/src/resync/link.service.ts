import { Injectable, Logger } from '@nestjs/common';
import { CatalogClients } from '../clients/catalog/catalog-clients.service.js';
import { scanCatalog } from '../clients/catalog/catalog-keyset-scan.js';
import { SyncEnqueuer } from '../intake/sync-enqueuer.service.js';
import { ResyncSettings } from '../platform/config/settings.js';
import { ConnectorError } from '../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../platform/http/connector-error-code.js';
import { SkuMapLinks } from '../product-sync/sku-map/sku-map-links.repository.js';
import { Shops } from '../shops/shops.js';
import { CatalogIndex } from './catalog-index.js';
import { type LinkMatch, LinkMatcher } from './link-matcher.js';
import { type LinkReportDto, REPORT_LIST_LIMIT } from './link-report.dto.js';
import { ResyncService } from './resync.service.js';
import { ShopProductKeys } from './shop-product-keys.service.js';

export interface LinkRequest {
  shop: string;
  /** Default: `CONNECTOR_LINK_MATCH`. */
  match?: LinkMatch;
  /** Report only: nothing is written, nothing enqueued. */
  dryRun: boolean;
  /** After linking, start a whole-shop resync (creates the rest, updates the linked). Default true. */
  resync?: boolean;
}

/**
 * The first run against a catalog that already holds products: before anything is created, the
 * account's records are read with a keyset scan (500 per search, never one search per product),
 * indexed by the match key, and each Shopify product is matched (`LinkMatcher`). Linked records
 * enter the map as live with their own supplierSku; then a whole-shop resync creates what
 * matched nothing and brings the linked records in line. Products the map holds that Shopify
 * no longer lists are enqueued too (their sync deletes them). A dry run writes nothing.
 */
@Injectable()
export class LinkService {
  private readonly logger = new Logger('Link');

  constructor(
    private readonly catalogs: CatalogClients,
    private readonly links: SkuMapLinks,
    private readonly enqueuer: SyncEnqueuer,
    private readonly resync: ResyncService,
    private readonly settings: ResyncSettings,
    private readonly shops: Shops,
    private readonly productKeys: ShopProductKeys,
  ) {}

  async link(request: LinkRequest): Promise<LinkReportDto> {
    const shop = this.shops.find(request.shop)?.domain;
    if (!shop) {
      throw new ConnectorError(ConnectorErrorCode.UNKNOWN_SHOP, `Shop ${request.shop} is not configured.`, {
        shop: request.shop,
      });
    }
    const match = request.match ?? this.settings.linkMatch;
    const account = this.catalogs.forShop(shop);
    const index = new CatalogIndex(match.catalog, await this.links.mappedSkuIds(account.shops));
    let searches = 0;
    const client: Parameters<typeof scanCatalog>[0] = {
      searchProducts: (body, call) => {
        searches += 1;
        return account.client.searchProducts(body, call);
      },
    };
    for await (const records of scanCatalog(client)) index.add(records);
    const mapped = await this.links.mappedProducts(shop);
    const matcher = new LinkMatcher(index, match, mapped, await this.links.usedSupplierSkus(shop));
    const report = emptyReport(shop, request.dryRun, match, index.size, searches);
    const listed = new Set<string>();
    report.shopifyRead = await this.productKeys.each(shop, async (products) => {
      for (const product of products) {
        if (listed.has(product.productId)) continue;
        listed.add(product.productId);
        const decision = matcher.decide(product);
        if (decision.action === 'link' && !request.dryRun) {
          if (!(await this.links.link(shop, product.productId, decision.records))) {
            push(report.conflicts, { productId: product.productId, reason: 'taken in the map meanwhile' });
            report.counts.conflicts += 1;
            continue;
          }
        }
        this.count(report, decision);
      }
    });
    report.shopifyProducts = listed.size;
    for (const productId of mapped) {
      if (listed.has(productId)) continue;
      report.counts.deleted += 1;
      push(report.deleted, productId);
      if (!request.dryRun) await this.enqueuer.enqueue({ shop, productId, reason: 'resync' });
    }
    if (!request.dryRun && request.resync !== false)
      report.resyncRunId = (await this.resync.start(shop, null)).id;
    this.logger.log(
      `${shop}${request.dryRun ? ' (dry run)' : ''}: ${report.counts.linked} linked, ${report.counts.created} to create, ${report.counts.conflicts} conflict(s)`,
    );
    return report;
  }

  private count(report: LinkReportDto, decision: ReturnType<LinkMatcher['decide']>): void {
    switch (decision.action) {
      case 'link':
        report.counts.linked += 1;
        push(report.linked, {
          productId: decision.productId,
          records: decision.records.map(({ kind, shopifyVariantId, skuId, supplierSku }) => ({
            kind,
            shopifyVariantId,
            skuId,
            supplierSku,
          })),
        });
        return;
      case 'create':
        report.counts.created += 1;
        push(report.created, decision.productId);
        return;
      case 'update':
        report.counts.updated += 1;
        push(report.updated, decision.productId);
        return;
      case 'conflict':
        report.counts.conflicts += 1;
        push(report.conflicts, { productId: decision.productId, reason: decision.reason });
        return;
    }
  }
}

function emptyReport(
  shop: string,
  dryRun: boolean,
  match: LinkMatch,
  records: number,
  searches: number,
): LinkReportDto {
  return {
    shop,
    dryRun,
    match,
    catalog: { records, searches },
    shopifyProducts: 0,
    shopifyRead: 'pages',
    counts: { linked: 0, created: 0, updated: 0, deleted: 0, conflicts: 0 },
    linked: [],
    created: [],
    updated: [],
    deleted: [],
    conflicts: [],
    resyncRunId: null,
  };
}

function push<T>(list: T[], item: T): void {
  if (list.length < REPORT_LIST_LIMIT) list.push(item);
}
