import { Module } from '@nestjs/common';
import { CatalogModule } from '../clients/catalog/catalog.module.js';
import { ShopMappings } from './shop-mappings.service.js';

/**
 * Every shop's mapping (the files `createConnector` parsed, `SHOP_MAPPING_FILES`), checked at boot
 * against its catalog account; the product sync and the write-back read it through `ShopMappings`.
 */
@Module({ imports: [CatalogModule], providers: [ShopMappings], exports: [ShopMappings] })
export class MappingModule {}
