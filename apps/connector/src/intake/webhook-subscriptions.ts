import { WEBHOOK_SUBSCRIPTION_CREATE_MUTATION } from '../clients/shopify/documents/webhook-subscription-create.mutation.js';
import { WEBHOOK_SUBSCRIPTIONS_QUERY } from '../clients/shopify/documents/webhook-subscriptions.query.js';
import type { ShopAdminClient } from '../clients/shopify/shop-admin.client.js';
import { SUBSCRIBED_TOPICS } from './webhook-headers.js';

/** The path Shopify posts deliveries to. */
export const WEBHOOK_PATH = '/webhooks/shopify';

interface ListAnswer {
  webhookSubscriptions: { nodes: Array<{ id: string; topic: string; uri: string }> };
}
interface CreateAnswer {
  webhookSubscriptionCreate: {
    webhookSubscription: { id: string } | null;
    userErrors: Array<{ message: string }>;
  };
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
  const existing = await admin.request<ListAnswer>(WEBHOOK_SUBSCRIPTIONS_QUERY, { uri }, 52);
  const have = new Set(existing.webhookSubscriptions.nodes.filter((s) => s.uri === uri).map((s) => s.topic));
  const outcome: SubscriptionOutcome = { existing: [], created: [] };
  for (const topic of topics.map((t) => t.toUpperCase().replace('/', '_'))) {
    if (have.has(topic)) {
      outcome.existing.push(topic);
      continue;
    }
    const answer = await admin.request<CreateAnswer>(
      WEBHOOK_SUBSCRIPTION_CREATE_MUTATION,
      { topic, uri },
      10,
    );
    const errors = answer.webhookSubscriptionCreate.userErrors;
    if (errors.length > 0) throw new Error(`${topic}: ${errors.map((e) => e.message).join('; ')}`);
    outcome.created.push(topic);
  }
  return outcome;
}
