import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository } from 'typeorm';
import { SkuMapRow } from '../../product-sync/sku-map/sku-map-row.entity.js';

const CHUNK = 1_000;

/**
 * Which catalog records the connector created for a shop (live sku map rows), read-only: a
 * record no row knows was created by someone else, and the write-back ignores it. A poll groups
 * the records it found by Shopify product with it (`productsOf`), and reads the rest of each
 * product's records (`skuIdsOfProducts`: a parent whose variant changed, say) for the push.
 */
@Injectable()
export class MappedRecords {
  constructor(@InjectRepository(SkuMapRow) private readonly rows: Repository<SkuMapRow>) {}

  /** The Shopify product (decimal id) of each mapped skuId among `skuIds`. */
  async productsOf(shop: string, skuIds: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (let i = 0; i < skuIds.length; i += CHUNK) {
      const rows = await this.rows.find({
        select: { skuId: true, shopifyProductId: true },
        where: { shop, state: 'live', skuId: In(skuIds.slice(i, i + CHUNK)) },
      });
      for (const row of rows) if (row.skuId !== null) found.set(row.skuId, row.shopifyProductId);
    }
    return found;
  }

  /** The mapped skuIds (live rows: the product's own and its variants') of each of `productIds`. */
  async skuIdsOfProducts(shop: string, productIds: readonly string[]): Promise<Map<string, string[]>> {
    const found = new Map<string, string[]>();
    for (let i = 0; i < productIds.length; i += CHUNK) {
      const rows = await this.rows.find({
        select: { skuId: true, shopifyProductId: true },
        where: { shop, state: 'live', shopifyProductId: In(productIds.slice(i, i + CHUNK)) },
      });
      for (const row of rows) {
        if (row.skuId === null) continue;
        const list = found.get(row.shopifyProductId) ?? [];
        list.push(row.skuId);
        found.set(row.shopifyProductId, list);
      }
    }
    return found;
  }
}
