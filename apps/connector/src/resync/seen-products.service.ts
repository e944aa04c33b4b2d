import { Injectable } from '@nestjs/common';
import { SkuMapLinks } from '../product-sync/sku-map/sku-map-links.repository.js';
import { SyncRecords } from '../product-sync/sync-records.repository.js';

/** A second, in ms: Shopify's `updatedAt` precision. */
const SECOND_MS = 1_000;

/**
 * Which listed products the connector has already applied at the `updatedAt` Shopify lists (the
 * reconciler enqueues the others). Why not a plain comparison: Shopify's `updatedAt` has second
 * precision, so an update in the same second as the state last applied looks "seen". A product
 * counts as seen when its own map row applied a later `updatedAt`, or the same one through a sync
 * run that started after that second was over (its read then included every change of that
 * second). The map and the sync records are asked through their own repositories.
 */
@Injectable()
export class SeenProducts {
  constructor(
    private readonly links: SkuMapLinks,
    private readonly syncRecords: SyncRecords,
  ) {}

  async among(
    shop: string,
    products: ReadonlyArray<{ productId: string; updatedAt: string }>,
  ): Promise<Set<string>> {
    if (products.length === 0) return new Set();
    const { later, sameSecond } = await this.links.appliedFrom(shop, products);
    const afterThatSecond = products
      .filter((p) => sameSecond.has(p.productId))
      .map((p) => ({ productId: p.productId, from: new Date(Date.parse(p.updatedAt) + SECOND_MS) }));
    const synced = await this.syncRecords.syncedFrom(shop, afterThatSecond);
    return new Set([...later, ...synced]);
  }
}
