import { Injectable } from '@nestjs/common';
import type { CanonicalProduct } from '../../clients/shopify/canonical-product.js';
import { readScopeFacts } from '../../clients/shopify/product-scope-reads.js';
import { ShopifyAdmin } from '../../clients/shopify/shopify-admin.service.js';
import type { ProductScope } from '../../mapping/model/mapping-file.js';
import { type ScopeFacts, type ScopeVerdict, scopeNeeds, scopeVerdict } from '../../mapping/product-scope.js';
import { SyncSettings } from '../../platform/config/settings.js';

/**
 * Why: the sync job asks one question before it plans: does this product sync? The canonical
 * read answers status, tags, vendor and product type; collections, the category and a metafield
 * cost one more read, made only when the shop's scope names them.
 */
@Injectable()
export class ScopeGate {
  constructor(
    private readonly shopify: ShopifyAdmin,
    private readonly settings: SyncSettings,
  ) {}

  async verdict(shop: string, product: CanonicalProduct, scope: ProductScope | null): Promise<ScopeVerdict> {
    const facts: ScopeFacts = {
      status: product.status,
      tags: product.tags,
      vendor: product.vendor,
      productType: product.productType,
    };
    const basic = scopeVerdict(scope, this.settings.statuses, facts);
    const needs = scopeNeeds(scope);
    // The canonical facts may already say no; then nothing more is read.
    if (!basic.inScope || !(needs.collections || needs.category || needs.metafield)) return basic;
    const read = await readScopeFacts(this.shopify.forShop(shop), product.id, needs);
    return scopeVerdict(scope, this.settings.statuses, { ...facts, ...read });
  }
}
