import { Injectable } from '@nestjs/common';
import { readShopCurrency } from '../../clients/shopify/shop-reads.js';
import { ShopifyAdmin } from '../../clients/shopify/shopify-admin.service.js';

/**
 * Why: a mapping entry with `currency: shop` sends prices as "19.99 EUR" (shops in different
 * currencies may share one catalog account). A shop's currency is read once per process, and
 * only for mappings that ask for it.
 */
@Injectable()
export class ShopCurrencies {
  private readonly known = new Map<string, Promise<string>>();

  constructor(private readonly shopify: ShopifyAdmin) {}

  of(shop: string): Promise<string> {
    let currency = this.known.get(shop);
    if (!currency) {
      currency = readShopCurrency(this.shopify.forShop(shop));
      currency.catch(() => this.known.delete(shop));
      this.known.set(shop, currency);
    }
    return currency;
  }
}
