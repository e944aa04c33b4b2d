/** The component schemas of the connector's OpenAPI document (answers as the code writes them). */
export const CONNECTOR_SCHEMAS: Record<string, Record<string, unknown>> = {
  WebhookAnswer: {
    oneOf: [
      {
        type: 'object',
        required: ['status', 'webhookId', 'queued'],
        properties: {
          status: { const: 'accepted' },
          webhookId: { type: 'string' },
          queued: {
            type: 'boolean',
            description:
              'true: its sync is being enqueued (within CONNECTOR_INBOX_ENQUEUE_FLUSH_MS; the answer does not wait for the queue). false: stored, the sweeper enqueues it later.',
          },
        },
      },
      {
        type: 'object',
        required: ['status', 'webhookId'],
        properties: { status: { const: 'duplicate' }, webhookId: { type: 'string' } },
      },
      {
        type: 'object',
        required: ['status', 'webhookId', 'topic'],
        description:
          'app/uninstalled, shop/redact, customers/data_request, customers/redact: acted on, not stored.',
        properties: {
          status: { const: 'processed' },
          webhookId: { type: 'string' },
          topic: { type: 'string' },
        },
      },
      {
        type: 'object',
        required: ['status', 'reason', 'topic'],
        properties: {
          status: { const: 'ignored' },
          reason: { const: 'unsupported_topic' },
          topic: { type: 'string' },
        },
      },
      {
        type: 'object',
        description:
          "app/uninstalled or shop/redact older than the shop's current installation (X-Shopify-Triggered-At): answered, ignored, recorded in GET /admin/shops.",
        required: ['status', 'reason', 'webhookId', 'topic', 'detail'],
        properties: {
          status: { const: 'ignored' },
          reason: { const: 'before_installation' },
          webhookId: { type: 'string' },
          topic: { type: 'string' },
          detail: { type: 'string' },
        },
      },
      {
        type: 'object',
        required: ['status', 'webhookId', 'walk'],
        properties: {
          status: { const: 'collection' },
          webhookId: { type: 'string' },
          walk: {
            type: 'boolean',
            description:
              "A collections/* delivery (not stored). true: a walk of the shop's scoped collections was asked for; false: the shop's mapping scopes no collection.",
          },
        },
      },
    ],
  },
};
