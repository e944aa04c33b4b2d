import { Controller, Get, Inject, Param, UseGuards, UseInterceptors } from '@nestjs/common';
import { parseAnyGid, toGid } from '../common/gid.js';
import { restTime } from '../common/shop-time.js';
import type { ShopifySandboxConfig } from '../config/shopify-sandbox.config.js';
import { ShopifySandboxError } from '../http/shopify-sandbox.error.js';
import type { MetafieldRecord } from '../products/metafield.store.js';
import { ownerTypeOf } from '../products/metafield-definition.store.js';
import { SANDBOX_CONFIG } from '../shopify-sandbox.tokens.js';
import { AdminAccessGuard, CurrentShop } from '../shops/admin-access.guard.js';
import { RestRequestLogInterceptor } from '../shops/rest-request-log.interceptor.js';
import type { Shop } from '../shops/shop.js';

/** Admin accesses that let the merchant read an app-owned metafield. */
const MERCHANT_READABLE = ['MERCHANT_READ', 'MERCHANT_READ_WRITE', 'PUBLIC_READ', 'PUBLIC_READ_WRITE'];

/**
 * A product's metafields as the merchant's admin shows them (REST `products/{id}/metafields.json`
 * shape). Metafields in an app-reserved namespace (`app--…`) are there only when a definition
 * grants the merchant read access: "If you create a metafield or metaobject without a definition
 * under your own reserved namespace or type, then it will be private to your app"
 * (https://shopify.dev/docs/apps/build/custom-data/ownership, read 2026-11-26).
 */
@Controller('admin/api/:version')
@UseGuards(AdminAccessGuard)
@UseInterceptors(RestRequestLogInterceptor)
export class MerchantMetafieldsController {
  constructor(@Inject(SANDBOX_CONFIG) private readonly config: ShopifySandboxConfig) {}

  @Get('products/:id/metafields.json')
  productMetafields(@CurrentShop() shop: Shop, @Param('id') id: string) {
    const product = /^\d{1,16}$/.test(id) ? shop.products.get(Number(id)) : undefined;
    if (!product) throw ShopifySandboxError.notFound();
    const metafields = shop.metafields
      .list(toGid('Product', product.id))
      .filter((m) => merchantCanRead(shop, m))
      .sort((a, b) => a.id - b.id)
      .map((m) => this.present(m));
    return { metafields };
  }

  private present(m: MetafieldRecord) {
    return {
      id: m.id,
      namespace: m.namespace,
      key: m.key,
      value: m.value,
      description: null,
      owner_id: parseAnyGid(m.ownerId)?.id,
      created_at: restTime(m.createdAt, this.config.timeZone),
      updated_at: restTime(m.updatedAt, this.config.timeZone),
      owner_resource: 'product',
      type: m.type,
      admin_graphql_api_id: toGid('Metafield', m.id),
    };
  }
}

/** Merchant-owned namespaces are always readable; app-owned ones only through a definition that says so. */
export function merchantCanRead(shop: Shop, m: MetafieldRecord): boolean {
  if (!m.namespace.startsWith('app--')) return true;
  const ownerType = ownerTypeOf(m.ownerId);
  const definition = ownerType ? shop.metafieldDefinitions.find(ownerType, m.namespace, m.key) : undefined;
  return definition !== undefined && MERCHANT_READABLE.includes(definition.adminAccess);
}
