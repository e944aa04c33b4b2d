import { Injectable } from '@nestjs/common';
import { ShopMappings } from '../mapping/shop-mappings.service.js';
import { shopHandle } from '../product-sync/plan/index.js';
import { SkuMapLinks } from '../product-sync/sku-map/sku-map-links.repository.js';
import { Shops } from '../shops/shops.js';

/**
 * Why: a drift repair deletes an orphan only when the connector can prove the record is its own
 * leftover and nobody's live record: its supplierSku is one the connector derives for this shop
 * (`<prefix>:product:<id>`, `<prefix>:variant:<id>`) and no other shop it serves derives under
 * the same prefix. The report and the repair ask the same questions here (the repair again when
 * it runs: an old report's finding is judged by today's rules and shops).
 */
@Injectable()
export class DriftOwnership {
  constructor(
    private readonly mappings: ShopMappings,
    private readonly shops: Shops,
    private readonly links: SkuMapLinks,
  ) {}

  /** The shop's derived supplierSku prefix (the mapping's, or the shop's handle). */
  prefixOf(shop: string): string {
    return this.mappings.mapping(shop)?.file.supplierSku.prefix ?? shopHandle(shop);
  }

  /**
   * Whether another served shop (the shops table read again, not this replica's memory) derives
   * supplierSkus under `prefix`, or the map holds another shop's rows under it.
   */
  async prefixShared(shop: string, prefix: string): Promise<boolean> {
    await this.shops.refresh();
    const others = this.shops.all.filter((s) => s.domain !== shop);
    if (others.some((s) => this.prefixOf(s.domain) === prefix)) return true;
    return this.links.prefixUsedByOthers(shop, prefix);
  }

  /**
   * Null when `supplierSku` is one the connector derives for `shop` alone (a product record's
   * `<prefix>:product:<id>`, a variant record's `<prefix>:variant:<id>`); else why the connector
   * cannot prove the record is its own.
   */
  async notOwnReason(shop: string, supplierSku: string, variant: boolean): Promise<string | null> {
    const prefix = this.prefixOf(shop);
    const head = `${prefix}:${variant ? 'variant' : 'product'}:`;
    if (!supplierSku.startsWith(head) || !/^\d+$/.test(supplierSku.slice(head.length))) {
      return `supplierSku ${supplierSku} is not one the connector derives for ${shop} (${head}<id>): the record may be another shop's or tool's live record`;
    }
    if (await this.prefixShared(shop, prefix)) {
      return `another shop the connector serves derives supplierSkus under the prefix ${prefix}: the record may be its live record`;
    }
    return null;
  }
}
