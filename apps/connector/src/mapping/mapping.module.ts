import { type DynamicModule, Module } from '@nestjs/common';
import { CatalogModule } from '../clients/catalog/catalog.module.js';
import { SHOP_MAPPING_FILES } from '../connector.tokens.js';
import type { ShopMappingFiles } from './load-shop-mappings.js';
import { ShopMappings } from './shop-mappings.js';

/** Part of ③ sync: every shop's mapping, parsed at boot and checked against its catalog account. */
@Module({})
export class MappingModule {}

/** `files`: the mapping files `createConnector` parsed before building the app (a bad one stops it). */
export function mappingModule(files: ShopMappingFiles): DynamicModule {
  return {
    module: MappingModule,
    imports: [CatalogModule],
    providers: [{ provide: SHOP_MAPPING_FILES, useValue: files }, ShopMappings],
    exports: [ShopMappings],
  };
}
