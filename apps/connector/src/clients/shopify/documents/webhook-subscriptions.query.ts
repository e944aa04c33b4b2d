/** The connector's subscriptions at its webhook URI (at most 50: it needs a handful per shop). */
export const WEBHOOK_SUBSCRIPTIONS_QUERY = `
query ConnectorWebhookSubscriptions($uri: String!) {
  webhookSubscriptions(first: 50, uri: $uri) { nodes { id topic uri } }
}`;
