import { randomInt, randomUUID } from 'node:crypto';
import { answeringVersion } from '../common/api-versions.js';
import { toGid } from '../common/gid.js';
import { nanosecondUtcTime } from '../common/shop-time.js';
import type { ShopifySandboxConfig } from '../config/shopify-sandbox.config.js';
import type { ProductEvent } from '../products/product.store.js';
import type { Shop } from '../shops/shop.js';
import type { DeliveryRecord } from './delivery-log.js';
import { shopifyJson } from './shopify-json.js';
import { webhookHmac, webhookPayload } from './webhook-payload.js';
import { topicHeader, type WebhookSubscriptionRecord } from './webhook-subscription.store.js';

/** One delivery ready to send: its log record and the exact bytes and headers of the POST. */
export interface Delivery {
  shop: Shop;
  record: DeliveryRecord;
  body: string;
  headers: Record<string, string>;
}

/** What every subscription's delivery of one event shares. */
export interface EventStamp {
  eventId: string;
  /** `X-Shopify-Triggered-At`, nanosecond precision. */
  triggeredAt: string;
}

/** Stamps an event: a new event id and its time with nanoseconds, as Shopify writes them. */
export function stampEvent(event: ProductEvent): EventStamp {
  return { eventId: randomUUID(), triggeredAt: nanosecondUtcTime(event.at, randomInt(1_000_000)) };
}

/**
 * Builds the POST Shopify would send for one event and subscription: the payload of the
 * version that answers for the subscription (falling forward from a retired one), serialized
 * as Shopify does (`\/`), signed over exactly those bytes, with the captured header set.
 */
export function prepareDelivery(
  shop: Shop,
  event: ProductEvent,
  subscription: WebhookSubscriptionRecord,
  stamp: EventStamp,
  config: ShopifySandboxConfig,
  secret: string = config.appSecret,
): Delivery {
  const apiVersion =
    answeringVersion(subscription.apiVersion, config.apiVersions) ??
    config.apiVersions.at(-1) ??
    subscription.apiVersion;
  const payload = webhookPayload(event, subscription, shop.metafields, {
    timeZone: config.timeZone,
    emptyFields: config.emptyFields,
    apiVersion,
  });
  const body = shopifyJson(payload);
  const webhookId = randomUUID();
  const topic = topicHeader(subscription.topic);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': 'Shopify-Captain-Hook',
    Accept: '*/*',
    'Accept-Encoding': 'gzip;q=1.0,deflate;q=0.6,identity;q=0.3',
    'X-Shopify-Topic': topic,
    'X-Shopify-Hmac-Sha256': webhookHmac(body, secret),
    'X-Shopify-Shop-Domain': shop.domain,
    'X-Shopify-API-Version': apiVersion,
    'X-Shopify-Product-Id': String(event.product.id),
    'X-Shopify-Webhook-Id': webhookId,
    'X-Shopify-Event-Id': stamp.eventId,
    'X-Shopify-Triggered-At': stamp.triggeredAt,
  };
  if (subscription.name) headers['X-Shopify-Name'] = subscription.name;
  const record: DeliveryRecord = {
    id: randomUUID(),
    webhookId,
    eventId: stamp.eventId,
    topic,
    subscriptionId: toGid('WebhookSubscription', subscription.id),
    uri: subscription.uri,
    productId: event.product.id,
    apiVersion,
    triggeredAt: stamp.triggeredAt,
    state: 'pending',
    duplicate: false,
    attempts: [],
    payload,
  };
  return { shop, record, body, headers };
}
