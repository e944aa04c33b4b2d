import { Injectable, Logger } from '@nestjs/common';
import { BulkProductReader } from '../../clients/shopify/bulk-product.reader.js';
import { ShopBulkLock } from '../../clients/shopify/shop-bulk-lock.service.js';
import { ShopifyAdmin } from '../../clients/shopify/shopify-admin.service.js';
import { allPages, listProductPage } from '../../clients/shopify/shopify-product-pages.js';
import { ResyncSettings } from '../../platform/config/settings.js';

/** Shopify's side of one report: every product's `updatedAt` (epoch ms), and how it was read. */
export interface DriftShopify {
  products: Map<string, number>;
  read: 'bulk' | 'pages';
}

const PAGE = 250;

/**
 * Why: a report reads the whole shop the way resync and reconciliation do: one bulk query above
 * `CONNECTOR_BULK_THRESHOLD` mapped products, under the shop's bulk lock (one bulk read per shop
 * at a time); id pages below it, while another bulk read holds the lock, or after a bulk read
 * failed twice.
 */
@Injectable()
export class DriftShopifyReader {
  private readonly logger = new Logger('DriftShopifyReader');

  constructor(
    private readonly shopify: ShopifyAdmin,
    private readonly bulk: BulkProductReader,
    private readonly bulkLock: ShopBulkLock,
    private readonly settings: ResyncSettings,
  ) {}

  /** Every product of the shop; `mapped` is how many products the map holds (the threshold's measure). */
  async read(shop: string, mapped: number): Promise<DriftShopify> {
    if (mapped > this.settings.bulkThreshold) {
      const products = await this.bulkLock.withLock(
        shop,
        () => this.readInBulk(shop),
        async () => null,
      );
      if (products !== null) return { products, read: 'bulk' };
    }
    const products = new Map<string, number>();
    const admin = this.shopify.forShop(shop);
    for await (const items of allPages((after) => listProductPage(admin, { after, first: PAGE }))) {
      for (const item of items) products.set(item.productId, Date.parse(item.updatedAt));
    }
    return { products, read: 'pages' };
  }

  private async readInBulk(shop: string): Promise<Map<string, number> | null> {
    const products = new Map<string, number>();
    const report = await this.bulk.read(shop, async (batch) => {
      for (const product of batch) products.set(product.legacyResourceId, Date.parse(product.updatedAt));
    });
    if (report.ok) return products;
    this.logger.warn(`${shop}: the drift report's bulk read failed twice; listing pages instead`);
    return null;
  }
}
