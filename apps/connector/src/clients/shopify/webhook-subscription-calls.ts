import { WEBHOOK_SUBSCRIPTION_CREATE_MUTATION } from './documents/webhook-subscription-create.mutation.js';
import { WEBHOOK_SUBSCRIPTIONS_QUERY } from './documents/webhook-subscriptions.query.js';
import type { ShopAdminClient } from './shop-admin.client.js';

interface ListAnswer {
  webhookSubscriptions: { nodes: Array<{ id: string; topic: string; uri: string }> };
}
interface CreateAnswer {
  webhookSubscriptionCreate: {
    webhookSubscription: { id: string } | null;
    userErrors: Array<{ message: string }>;
  };
}

/** Why: the one place `WEBHOOK_SUBSCRIPTIONS_QUERY` runs: the topics (`PRODUCTS_UPDATE` ...) subscribed at `uri` (52 points). */
export async function subscribedTopics(
  admin: Pick<ShopAdminClient, 'request'>,
  uri: string,
): Promise<Set<string>> {
  const existing = await admin.request<ListAnswer>(WEBHOOK_SUBSCRIPTIONS_QUERY, { uri }, 52);
  return new Set(existing.webhookSubscriptions.nodes.filter((s) => s.uri === uri).map((s) => s.topic));
}

/**
 * Why: the one place `WEBHOOK_SUBSCRIPTION_CREATE_MUTATION` runs: subscribes `uri` to `topic`
 * (10 points); Shopify's `userErrors` are thrown as one error naming the topic.
 */
export async function createSubscription(
  admin: Pick<ShopAdminClient, 'request'>,
  topic: string,
  uri: string,
): Promise<void> {
  const answer = await admin.request<CreateAnswer>(WEBHOOK_SUBSCRIPTION_CREATE_MUTATION, { topic, uri }, 10);
  const errors = answer.webhookSubscriptionCreate.userErrors;
  if (errors.length > 0) throw new Error(`${topic}: ${errors.map((e) => e.message).join('; ')}`);
}
