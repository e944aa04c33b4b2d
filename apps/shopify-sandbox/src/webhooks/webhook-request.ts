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
export function stampEvent(event: { at: number }): EventStamp {
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
  secret: string,
): Delivery {
  const apiVersion = deliveryApiVersion(subscription, config);
  const payload = webhookPayload(event, subscription, shop.metafields, {
    timeZone: config.timeZone,
    emptyFields: config.emptyFields,
    apiVersion,
  });
  return signedDelivery(shop, subscription, stamp, {
    apiVersion,
    payload,
    productId: event.product.id,
    headers: { 'X-Shopify-Product-Id': String(event.product.id) },
    secret,
  });
}

/** What one delivery carries besides the subscription: the payload and its topic's own headers. */
export interface DeliveryContent {
  apiVersion: string;
  payload: Record<string, unknown>;
  /** The product of a `products/*` delivery; null for other topics. */
  productId: number | null;
  /** Topic-specific headers, e.g. `X-Shopify-Product-Id`. */
  headers: Record<string, string>;
  /** The subscribing app's client secret, which signs the body. */
  secret: string;
}

/** The version that answers for a subscription: its own, or the oldest supported one after it. */
export function deliveryApiVersion(
  subscription: WebhookSubscriptionRecord,
  config: ShopifySandboxConfig,
): string {
  return (
    answeringVersion(subscription.apiVersion, config.apiVersions) ??
    config.apiVersions.at(-1) ??
    subscription.apiVersion
  );
}

/** Where one delivery goes: its `X-Shopify-Topic`, URL, subscription (if any) and name. */
export interface DeliveryTarget {
  topic: string;
  uri: string;
  /** The subscription's gid; empty for compliance topics, which go to the app's URLs. */
  subscriptionId: string;
  name?: string | null;
}

/** The delivery of one event to one subscription (see `signedPost`). */
export function signedDelivery(
  shop: Shop,
  subscription: WebhookSubscriptionRecord,
  stamp: EventStamp,
  content: DeliveryContent,
): Delivery {
  const target = {
    topic: topicHeader(subscription.topic),
    uri: subscription.uri,
    subscriptionId: toGid('WebhookSubscription', subscription.id),
    name: subscription.name,
  };
  return signedPost(shop, target, stamp, content);
}

/**
 * Serializes a payload as Shopify does (`\/`), signs exactly those bytes and adds the captured
 * header set; the log record starts pending. Shared by every topic, app and compliance ones too.
 */
export function signedPost(
  shop: Shop,
  target: DeliveryTarget,
  stamp: EventStamp,
  content: DeliveryContent,
): Delivery {
  const { apiVersion, payload } = content;
  const body = shopifyJson(payload);
  const webhookId = randomUUID();
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': 'Shopify-Captain-Hook',
    Accept: '*/*',
    'Accept-Encoding': 'gzip;q=1.0,deflate;q=0.6,identity;q=0.3',
    'X-Shopify-Topic': target.topic,
    'X-Shopify-Hmac-Sha256': webhookHmac(body, content.secret),
    'X-Shopify-Shop-Domain': shop.domain,
    'X-Shopify-API-Version': apiVersion,
    ...content.headers,
    'X-Shopify-Webhook-Id': webhookId,
    'X-Shopify-Event-Id': stamp.eventId,
    'X-Shopify-Triggered-At': stamp.triggeredAt,
  };
  if (target.name) headers['X-Shopify-Name'] = target.name;
  const record: DeliveryRecord = {
    id: randomUUID(),
    webhookId,
    eventId: stamp.eventId,
    topic: target.topic,
    subscriptionId: target.subscriptionId,
    uri: target.uri,
    productId: content.productId,
    apiVersion,
    triggeredAt: stamp.triggeredAt,
    state: 'pending',
    duplicate: false,
    attempts: [],
    payload,
  };
  return { shop, record, body, headers };
}
