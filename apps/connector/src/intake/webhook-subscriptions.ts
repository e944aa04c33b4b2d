import type { ShopAdminClient } from '../clients/shopify/shop-admin.client.js';
import { createSubscription, subscribedTopics } from '../clients/shopify/webhook-subscription-calls.js';
import { COLLECTION_TOPICS, SUBSCRIBED_TOPICS } from './webhook-headers.js';

/** The path Shopify posts deliveries to. */
export const WEBHOOK_PATH = '/webhooks/shopify';

/**
 * The connector's topics for a shop whose mapping has `scope`: a scope naming collections needs
 * their deliveries too (issue 30). The boot's check and `register-webhooks` both ask this.
 */
export function topicsForScope(scope: { collections: readonly unknown[] } | null): readonly string[] {
  return (scope?.collections.length ?? 0) > 0
    ? [...SUBSCRIBED_TOPICS, ...COLLECTION_TOPICS]
    : SUBSCRIBED_TOPICS;
}

/** What `ensureWebhookSubscriptions` found and did, by topic (`PRODUCTS_UPDATE`, ...). */
export interface SubscriptionOutcome {
  /** Topics that were already subscribed at the URI, kept as they are. */
  existing: string[];
  /** Topics subscribed now. */
  created: string[];
}

/**
 * Subscribes one shop's `products/create`, `/update`, `/delete` and `app/uninstalled` (and any
 * other `topics`) to `uri`, idempotently: topics already subscribed at that URI are kept, the missing ones created. A plain function, so
 * the boot's service and the command line (`register-webhooks`) run the very same calls.
 */
export async function ensureWebhookSubscriptions(
  admin: Pick<ShopAdminClient, 'request'>,
  uri: string,
  topics: readonly string[] = SUBSCRIBED_TOPICS,
): Promise<SubscriptionOutcome> {
  const have = await subscribedTopics(admin, uri);
  const outcome: SubscriptionOutcome = { existing: [], created: [] };
  for (const topic of topics.map((t) => t.toUpperCase().replace('/', '_'))) {
    if (have.has(topic)) {
      outcome.existing.push(topic);
      continue;
    }
    await createSubscription(admin, topic, uri);
    outcome.created.push(topic);
  }
  return outcome;
}
