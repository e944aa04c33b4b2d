import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BulkProductReader } from './bulk-product.reader.js';
import { CostBucketsShopData } from './cost-buckets-shop-data.service.js';
import { SharedCostBuckets } from './shared-cost-buckets.repository.js';
import { ShopBulkLock } from './shop-bulk-lock.service.js';
import { ShopifyAdmin } from './shopify-admin.service.js';
import { ShopifyCostBucketRow } from './shopify-cost-bucket.entity.js';

/**
 * The shops' Admin GraphQL API (paced by each shop's cost bucket, shared by the replicas) and
 * whole-shop bulk reads (beside the stages: any stage may use them).
 */
@Module({
  imports: [TypeOrmModule.forFeature([ShopifyCostBucketRow])],
  providers: [ShopifyAdmin, BulkProductReader, ShopBulkLock, SharedCostBuckets, CostBucketsShopData],
  exports: [ShopifyAdmin, BulkProductReader, ShopBulkLock, SharedCostBuckets],
})
export class ShopifyModule {}
