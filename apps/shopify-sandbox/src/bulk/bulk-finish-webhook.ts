import { randomInt, randomUUID } from 'node:crypto';
import { answeringVersion } from '../common/api-versions.js';
import { toGid } from '../common/gid.js';
import { nanosecondUtcTime, restTime } from '../common/shop-time.js';
import type { ShopifySandboxConfig } from '../config/shopify-sandbox.config.js';
import type { Shop } from '../shops/shop.js';
import { shopifyJson } from '../webhooks/shopify-json.js';
import { webhookHmac } from '../webhooks/webhook-payload.js';
import type { Delivery } from '../webhooks/webhook-request.js';
import type { WebhookSubscriptionRecord } from '../webhooks/webhook-subscription.store.js';
import { type BulkOperationRecord, bulkOperationGid } from './bulk-operation.js';

/** The subscription topic (GraphQL enum) and its header form. */
export const BULK_FINISH_TOPIC = 'BULK_OPERATIONS_FINISH';
export const BULK_FINISH_HEADER = 'bulk_operations/finish';

/**
 * The `bulk_operations/finish` payload of Shopify's webhook reference: the run's gid, its
 * times in the shop's zone (REST style), error code, status and type in lower case.
 */
export function bulkFinishPayload(record: BulkOperationRecord, timeZone: string): Record<string, unknown> {
  return {
    admin_graphql_api_id: bulkOperationGid(record.id),
    completed_at:
      record.status === 'COMPLETED' && record.finishedAt !== null
        ? restTime(record.finishedAt, timeZone)
        : null,
    created_at: restTime(record.createdAt, timeZone),
    error_code: record.errorCode?.toLowerCase() ?? null,
    status: record.status.toLowerCase(),
    type: record.type.toLowerCase(),
  };
}

/**
 * The signed POST of `bulk_operations/finish` to one subscription, with the header set of
 * every other delivery (no `X-Shopify-Product-Id`: it is not a product event).
 */
export function bulkFinishDelivery(
  shop: Shop,
  record: BulkOperationRecord,
  subscription: WebhookSubscriptionRecord,
  config: ShopifySandboxConfig,
  now: number,
): Delivery {
  const apiVersion =
    answeringVersion(subscription.apiVersion, config.apiVersions) ??
    config.apiVersions.at(-1) ??
    subscription.apiVersion;
  const payload = bulkFinishPayload(record, config.timeZone);
  const body = shopifyJson(payload);
  const webhookId = randomUUID();
  const eventId = randomUUID();
  const triggeredAt = nanosecondUtcTime(now, randomInt(1_000_000));
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': 'Shopify-Captain-Hook',
    Accept: '*/*',
    'Accept-Encoding': 'gzip;q=1.0,deflate;q=0.6,identity;q=0.3',
    'X-Shopify-Topic': BULK_FINISH_HEADER,
    'X-Shopify-Hmac-Sha256': webhookHmac(body, config.appSecret),
    'X-Shopify-Shop-Domain': shop.domain,
    'X-Shopify-API-Version': apiVersion,
    'X-Shopify-Webhook-Id': webhookId,
    'X-Shopify-Event-Id': eventId,
    'X-Shopify-Triggered-At': triggeredAt,
  };
  if (subscription.name) headers['X-Shopify-Name'] = subscription.name;
  return {
    shop,
    body,
    headers,
    record: {
      id: randomUUID(),
      webhookId,
      eventId,
      topic: BULK_FINISH_HEADER,
      subscriptionId: toGid('WebhookSubscription', subscription.id),
      uri: subscription.uri,
      productId: null,
      apiVersion,
      triggeredAt,
      state: 'pending',
      duplicate: false,
      attempts: [],
      payload,
    },
  };
}
