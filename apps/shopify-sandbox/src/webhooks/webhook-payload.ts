import { createHmac } from 'node:crypto';
import { parseAnyGid, toGid } from '../common/gid.js';
import { restTime } from '../common/shop-time.js';
import type { MetafieldStore } from '../products/metafield.store.js';
import type { ProductEvent } from '../products/product.store.js';
import { deletedProductPayload, productPayload, WEBHOOK_VARIANT_LIMIT } from '../products/product-payload.js';
import type { WebhookSubscriptionRecord } from './webhook-subscription.store.js';

/**
 * The JSON body of a `products/*` webhook for one subscription: the REST-style product (first
 * 100 variants in full), narrowed to `includeFields` and extended with the product metafields
 * of `metafieldNamespaces` when the subscription asks for them.
 */
export function webhookPayload(
  event: ProductEvent,
  subscription: WebhookSubscriptionRecord,
  metafields: MetafieldStore,
  utcOffsetMinutes: number,
): Record<string, unknown> {
  if (event.type === 'delete') return deletedProductPayload(event.product);
  const payload = productPayload(event.product, { utcOffsetMinutes, variantLimit: WEBHOOK_VARIANT_LIMIT });
  if (subscription.metafieldNamespaces.length > 0) {
    const ownerId = toGid('Product', event.product.id);
    payload.metafields = metafields
      .list(ownerId)
      .filter((m) => subscription.metafieldNamespaces.includes(m.namespace))
      .map((m) => ({
        id: m.id,
        namespace: m.namespace,
        key: m.key,
        value: m.value,
        description: null,
        owner_id: parseAnyGid(m.ownerId)?.id,
        created_at: restTime(m.createdAt, utcOffsetMinutes),
        updated_at: restTime(m.updatedAt, utcOffsetMinutes),
        owner_resource: 'product',
        type: m.type,
        admin_graphql_api_id: toGid('Metafield', m.id),
      }));
  }
  if (subscription.includeFields.length === 0) return payload;
  return Object.fromEntries(
    Object.entries(payload).filter(([key]) => subscription.includeFields.includes(key)),
  );
}

/** `X-Shopify-Hmac-Sha256`: base64 HMAC-SHA256 of the raw body with the app's secret. */
export function webhookHmac(rawBody: string, appSecret: string): string {
  return createHmac('sha256', appSecret).update(rawBody, 'utf8').digest('base64');
}
