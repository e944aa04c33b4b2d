/** Subscribes one topic at the connector's webhook URI. */
export const WEBHOOK_SUBSCRIPTION_CREATE_MUTATION = `
mutation ConnectorWebhookSubscriptionCreate($topic: WebhookSubscriptionTopic!, $uri: String!) {
  webhookSubscriptionCreate(topic: $topic, webhookSubscription: { uri: $uri }) {
    webhookSubscription { id }
    userErrors { field message }
  }
}`;
