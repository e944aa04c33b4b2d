import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '../../clients/catalog/catalog.module.js';
import { ShopifyModule } from '../../clients/shopify/shopify.module.js';
import { SYNC_STEPS } from '../../connector.tokens.js';
import { InboxModule } from '../../intake/inbox.module.js';
import { CatalogSyncSteps } from '../apply/catalog-sync-steps.js';
import { DriftScanner } from '../drift-scanner.js';
import { ShopCurrencies } from '../shop-currencies.js';
import { SkuMapRepository } from './sku-map.repository.js';
import { SkuMapRow } from './sku-map-row.entity.js';

/**
 * ④ The Shopify <-> supplierSku <-> skuId map, and the catalog side of the sync (`SYNC_STEPS`),
 * which the composition root hands to the sync stage.
 */
@Module({})
export class SkuMapModule {}

/** `mapping`: the app's one mapping module instance (`mappingModule(files)`). */
export function skuMapModule(mapping: DynamicModule): DynamicModule {
  return {
    module: SkuMapModule,
    imports: [TypeOrmModule.forFeature([SkuMapRow]), CatalogModule, ShopifyModule, InboxModule, mapping],
    providers: [
      SkuMapRepository,
      DriftScanner,
      ShopCurrencies,
      CatalogSyncSteps,
      { provide: SYNC_STEPS, useExisting: CatalogSyncSteps },
    ],
    exports: [SkuMapRepository, SYNC_STEPS],
  };
}
