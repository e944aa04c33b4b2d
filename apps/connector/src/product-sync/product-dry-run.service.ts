import { Injectable } from '@nestjs/common';
import { fetchCanonicalProduct } from '../clients/shopify/fetch-canonical-product.js';
import { ShopifyAdmin } from '../clients/shopify/shopify-admin.service.js';
import { ShopMappings } from '../mapping/shop-mappings.service.js';
import { MediaSettings, SyncSettings } from '../platform/config/settings.js';
import type { SyncReason } from '../platform/queues/job-payloads.js';
import { CatalogSyncSteps } from './apply/catalog-sync-steps.service.js';
import type { SyncApplied, SyncRun } from './apply/sync-run.js';
import type { PlannedWrite } from './planned/planned-writes.repository.js';
import { SkuMapRepository } from './sku-map/sku-map.repository.js';

/** What a product's sync would do now: the calls it would send, in order, with each record's before and after. */
export interface ProductDryRunResult {
  shop: string;
  productId: string;
  /** Whether Shopify still has the product (not found: the plan deletes its records). */
  found: boolean;
  result: SyncApplied['result'];
  detail: string | null;
  writes: PlannedWrite[];
  events: string[];
}

/**
 * Why: an operator (and a dry-run resync) sees what a product's sync would send before it is
 * sent (issue 31). It reads the product as the sync job does (fresh from Shopify) and plans it
 * through `CatalogSyncSteps` with a dry-run sink: the same code that fills a shadow shop's
 * planned writes, so a dry run and shadow cannot disagree. Nothing is sent and nothing stored
 * (no sku map row, no planned write, no sync record).
 */
@Injectable()
export class ProductDryRun {
  constructor(
    private readonly shopify: ShopifyAdmin,
    private readonly mappings: ShopMappings,
    private readonly skuMap: SkuMapRepository,
    private readonly steps: CatalogSyncSteps,
    private readonly settings: SyncSettings,
    private readonly media: MediaSettings,
  ) {}

  async plan(shop: string, productId: string, reason: SyncReason = 'resync'): Promise<ProductDryRunResult> {
    const sources = this.mappings.mapping(shop)?.sources;
    const read = await fetchCanonicalProduct(this.shopify.forShop(shop), productId, {
      expectedVariants: await this.skuMap.variantCount(shop, productId),
      media: this.media.enabled,
      ...(sources ? { sources } : {}),
      allVariants: this.settings.largeProducts === 'split',
    });
    const run: SyncRun = {
      jobId: null,
      reason,
      calls: [],
      events: [`read from Shopify (requested cost ${read.requestedCost} points)`],
    };
    let writes: PlannedWrite[] = [];
    const sink = (planned: PlannedWrite[]) => {
      writes = planned;
    };
    const subject = { shop, productId };
    const change =
      read.product === null
        ? ({ kind: 'delete', cause: 'not-found' } as const)
        : ({ kind: 'upsert', product: read.product } as const);
    const applied = await this.steps.apply(subject, change, run, sink);
    return {
      shop,
      productId,
      found: read.product !== null,
      result: applied.result,
      detail: applied.detail,
      writes,
      events: run.events,
    };
  }
}
