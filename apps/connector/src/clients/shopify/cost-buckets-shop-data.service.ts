import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ShopDataRegistry } from '../../platform/reporting/shop-data-registry.service.js';
import { SharedCostBuckets } from './shared-cost-buckets.repository.js';

/** Why: a redacted shop's shared cost bucket goes with its other data (`shop/redact`). */
@Injectable()
export class CostBucketsShopData implements OnModuleInit {
  constructor(
    private readonly registry: ShopDataRegistry,
    private readonly buckets: SharedCostBuckets,
  ) {}

  onModuleInit(): void {
    this.registry.register({
      tables: ['shopify_cost_buckets'],
      purge: async (shop) => this.buckets.purgeShop(shop),
    });
  }
}
