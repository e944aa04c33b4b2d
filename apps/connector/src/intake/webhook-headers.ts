import type { Request } from 'express';

/** The `X-Shopify-*` headers of a delivery (absent ones are undefined). */
export interface WebhookHeaders {
  hmac: string | undefined;
  shopDomain: string | undefined;
  topic: string | undefined;
  webhookId: string | undefined;
  eventId: string | undefined;
  triggeredAt: string | undefined;
  apiVersion: string | undefined;
}

/** The topics the connector handles; other topics are answered and ignored. */
export const PRODUCT_TOPICS = ['products/create', 'products/update', 'products/delete'] as const;
export type ProductTopic = (typeof PRODUCT_TOPICS)[number];

export function isProductTopic(topic: string): topic is ProductTopic {
  return (PRODUCT_TOPICS as readonly string[]).includes(topic);
}

/**
 * The app's lifecycle and the mandatory compliance topics (docs/webhooks-and-lifecycle.md, "Uninstall and redact"):
 * `app/uninstalled` is subscribed with the product topics; the compliance ones go to the URLs set
 * in the app's configuration (they cannot be subscribed through the Admin API).
 */
export const LIFECYCLE_TOPICS = [
  'app/uninstalled',
  'shop/redact',
  'customers/data_request',
  'customers/redact',
] as const;
export type LifecycleTopic = (typeof LIFECYCLE_TOPICS)[number];

export function isLifecycleTopic(topic: string): topic is LifecycleTopic {
  return (LIFECYCLE_TOPICS as readonly string[]).includes(topic);
}

/** Every topic the connector subscribes itself to (`webhookSubscriptionCreate`). */
export const SUBSCRIBED_TOPICS = [...PRODUCT_TOPICS, 'app/uninstalled'] as const;

/**
 * Collection topics (issue 30): putting a product in or out of a collection changes the
 * collection, never the product, so these are how a scoped collection's changes are noticed.
 */
export const COLLECTION_TOPICS = ['collections/create', 'collections/update', 'collections/delete'] as const;

export function isCollectionTopic(topic: string): boolean {
  return (COLLECTION_TOPICS as readonly string[]).includes(topic);
}

/** Reads the delivery's headers, trimmed, empty ones as absent. */
export function webhookHeaders(req: Request): WebhookHeaders {
  const get = (name: string) => {
    const value = req.header(name)?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  return {
    hmac: get('x-shopify-hmac-sha256'),
    shopDomain: get('x-shopify-shop-domain')?.toLowerCase(),
    topic: get('x-shopify-topic')?.toLowerCase(),
    webhookId: get('x-shopify-webhook-id'),
    eventId: get('x-shopify-event-id'),
    triggeredAt: get('x-shopify-triggered-at'),
    apiVersion: get('x-shopify-api-version'),
  };
}
