import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SkuMapRepository } from './sku-map.repository.js';
import { SkuMapRow } from './sku-map-row.entity.js';

/** ④ The Shopify <-> supplierSku <-> skuId map. The sync engine's steps use `SkuMapRepository`. */
@Module({
  imports: [TypeOrmModule.forFeature([SkuMapRow])],
  providers: [SkuMapRepository],
  exports: [SkuMapRepository],
})
export class SkuMapModule {}
