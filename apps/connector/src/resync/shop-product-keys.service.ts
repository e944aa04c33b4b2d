import { Injectable } from '@nestjs/common';
import { BulkProductReader } from '../clients/shopify/bulk-product.reader.js';
import type { CanonicalProduct } from '../clients/shopify/canonical-product.js';
import { ShopBulkLock } from '../clients/shopify/shop-bulk-lock.service.js';
import { ShopifyAdmin } from '../clients/shopify/shopify-admin.service.js';
import {
  allPages,
  type KeyedProduct,
  listKeyedProductPage,
  listProductPage,
} from '../clients/shopify/shopify-product-pages.js';
import { ResyncSettings } from '../platform/config/settings.js';

/** Variants whose keys linking matches on, as the keyed page reads them. */
const KEYED_VARIANTS = 100;

/**
 * Every product of a shop with its variants' match keys, for linking: through one bulk query
 * when the shop has more than `CONNECTOR_BULK_THRESHOLD` products (under the shop's bulk lock),
 * otherwise, or when another bulk read holds the lock, or the bulk read failed twice, page by
 * page. A product may come twice (a bulk attempt that failed after streaming part of its result,
 * then pages): the caller skips those it has seen. Resolves to how the shop was read.
 */
@Injectable()
export class ShopProductKeys {
  constructor(
    private readonly shopify: ShopifyAdmin,
    private readonly bulk: BulkProductReader,
    private readonly lock: ShopBulkLock,
    private readonly settings: ResyncSettings,
  ) {}

  async each(shop: string, onBatch: (products: KeyedProduct[]) => Promise<void>): Promise<'bulk' | 'pages'> {
    if (await this.aboveThreshold(shop)) {
      const read = await this.lock.withLock(
        shop,
        async () => (await this.bulk.read(shop, (batch) => onBatch(batch.map(keyed)))).ok,
        async () => false,
      );
      if (read) return 'bulk';
    }
    const admin = this.shopify.forShop(shop);
    for await (const products of allPages((after) => listKeyedProductPage(admin, after)))
      await onBatch(products);
    return 'pages';
  }

  private async aboveThreshold(shop: string): Promise<boolean> {
    const threshold = this.settings.bulkThreshold;
    const probe = await listProductPage(this.shopify.forShop(shop), { after: null, first: threshold + 1 });
    return probe.items.length > threshold;
  }
}

/** A product of the bulk read as a keyed page lists it. */
function keyed(product: CanonicalProduct): KeyedProduct {
  return {
    productId: product.legacyResourceId,
    updatedAt: product.updatedAt,
    simple: product.hasOnlyDefaultVariant,
    variants: product.variants.slice(0, KEYED_VARIANTS).map((v) => ({
      variantId: v.legacyResourceId,
      sku: v.sku,
      barcode: v.barcode,
    })),
  };
}
