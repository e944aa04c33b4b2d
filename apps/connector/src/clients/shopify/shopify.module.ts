import { Module } from '@nestjs/common';
import { BulkProductReader } from './bulk-product-reader.js';
import { ShopBulkLock } from './shop-bulk-lock.js';
import { ShopifyAdmin } from './shopify-admin.service.js';

/** The shops' Admin GraphQL API and whole-shop bulk reads (beside the stages: any stage may use them). */
@Module({
  providers: [ShopifyAdmin, BulkProductReader, ShopBulkLock],
  exports: [ShopifyAdmin, BulkProductReader, ShopBulkLock],
})
export class ShopifyModule {}
