import { createHmac } from 'node:crypto';
import { UNSTABLE_VERSION } from '../common/api-versions.js';
import { parseAnyGid, toGid } from '../common/gid.js';
import { restTime } from '../common/shop-time.js';
import type { EmptyFieldsMode } from '../config/shopify-sandbox.config.js';
import type { MetafieldStore } from '../products/metafield.store.js';
import type { ProductEvent } from '../products/product.store.js';
import { deletedProductPayload, productPayload, WEBHOOK_VARIANT_LIMIT } from '../products/product-payload.js';
import type { WebhookSubscriptionRecord } from './webhook-subscription.store.js';

/**
 * Payload fields that exist only from an API version on: product webhooks carry `category` and
 * `has_variants_that_requires_components` when the subscription's version is 2024-10 or newer
 * (Gadget's captures, `shared/fixtures/shopify/README.md`). Every other field is the same in
 * every version the sandbox serves.
 */
export const PAYLOAD_FIELDS_SINCE: Readonly<Record<string, string>> = {
  has_variants_that_requires_components: '2024-10',
  category: '2024-10',
};

/** What shapes one subscription's payload besides the event. */
export interface WebhookPayloadOptions {
  timeZone: string;
  emptyFields: EmptyFieldsMode;
  /** The version that answers for the subscription (after falling forward). */
  apiVersion: string;
}

/**
 * The JSON body of a `products/*` webhook for one subscription: the REST-style product (first
 * 100 variants in full) in the shape of the answering API version, narrowed to `includeFields`
 * and extended with the product metafields of `metafieldNamespaces` when the subscription asks.
 */
export function webhookPayload(
  event: ProductEvent,
  subscription: WebhookSubscriptionRecord,
  metafields: MetafieldStore,
  options: WebhookPayloadOptions,
): Record<string, unknown> {
  if (event.type === 'delete') return deletedProductPayload(event.product);
  const payload = productPayload(event.product, {
    timeZone: options.timeZone,
    emptyFields: options.emptyFields,
    variantLimit: WEBHOOK_VARIANT_LIMIT,
  });
  for (const [field, since] of Object.entries(PAYLOAD_FIELDS_SINCE)) {
    if (options.apiVersion !== UNSTABLE_VERSION && options.apiVersion < since) delete payload[field];
  }
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
        created_at: restTime(m.createdAt, options.timeZone),
        updated_at: restTime(m.updatedAt, options.timeZone),
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

/** `X-Shopify-Hmac-Sha256`: base64 HMAC-SHA256 of the raw body bytes with the app's secret. */
export function webhookHmac(rawBody: string, appSecret: string): string {
  return createHmac('sha256', appSecret).update(rawBody, 'utf8').digest('base64');
}
