import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SkuMapRepository } from './sku-map.repository.js';
import { SkuMapLinks } from './sku-map-links.repository.js';
import { SkuMapRow } from './sku-map-row.entity.js';
import { SkuMapTitles } from './sku-map-titles.repository.js';

/**
 * The Shopify <-> supplierSku <-> skuId map: the `sku_map` table and its one repository. Every
 * feature that needs the map imports this module and calls the repository's named queries.
 */
@Module({
  imports: [TypeOrmModule.forFeature([SkuMapRow])],
  providers: [SkuMapRepository, SkuMapLinks, SkuMapTitles],
  exports: [SkuMapRepository, SkuMapLinks, SkuMapTitles],
})
export class SkuMapModule {}
