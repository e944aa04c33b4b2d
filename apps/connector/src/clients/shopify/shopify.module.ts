import { Module } from '@nestjs/common';
import { ShopifyAdmin } from './shopify-admin.service.js';

/** The shops' Admin GraphQL API (beside the stages: any stage may use it). */
@Module({
  providers: [ShopifyAdmin],
  exports: [ShopifyAdmin],
})
export class ShopifyModule {}
