import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';

/** The component schemas of the connector's OpenAPI document (answers as the code writes them). */
export const CONNECTOR_SCHEMAS: Record<string, Record<string, unknown>> = {
  ErrorBody: {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message', 'requestId'],
        properties: {
          code: { type: 'string', enum: Object.values(ConnectorErrorCode) },
          message: { type: 'string' },
          requestId: { type: 'string', description: 'Correlation id, also in X-Request-Id.' },
          details: { type: 'object' },
        },
      },
    },
  },
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
  Liveness: { type: 'object', required: ['status'], properties: { status: { const: 'up' } } },
  Readiness: {
    type: 'object',
    required: ['ready', 'checks'],
    properties: {
      ready: { type: 'boolean' },
      checks: {
        type: 'object',
        properties: {
          database: { enum: ['up', 'down'] },
          queue: { enum: ['up', 'down'] },
        },
      },
    },
  },
  Failure: {
    type: 'object',
    required: [
      'id',
      'shop',
      'jobKind',
      'subjectKey',
      'state',
      'error',
      'attempts',
      'firstFailedAt',
      'lastFailedAt',
      'resolvedAt',
      'payload',
    ],
    properties: {
      id: { type: 'string', pattern: '^[1-9][0-9]*$' },
      shop: { type: 'string', examples: ['demo.myshopify.com'] },
      jobKind: { type: 'string', examples: ['sync-product'] },
      subjectKey: { type: 'string', description: 'What the job was about (a product sync: the product id).' },
      state: { enum: ['open', 'replayed', 'dismissed', 'resolved'] },
      error: {
        type: 'object',
        required: ['code', 'message', 'retryable'],
        properties: { code: { type: 'string' }, message: { type: 'string' }, retryable: { type: 'boolean' } },
      },
      attempts: { type: 'integer' },
      firstFailedAt: { type: 'string', format: 'date-time' },
      lastFailedAt: { type: 'string', format: 'date-time' },
      resolvedAt: { type: ['string', 'null'], format: 'date-time' },
      payload: { type: 'object', description: "The job's data, as a replay runs it again." },
    },
  },
  FailurePage: {
    type: 'object',
    required: ['items', 'total', 'limit', 'offset'],
    properties: {
      items: { type: 'array', items: { $ref: '#/components/schemas/Failure' } },
      total: { type: 'integer', description: 'Failures matching the filter, all pages.' },
      limit: { type: 'integer' },
      offset: { type: 'integer' },
    },
  },
  BulkDismiss: {
    type: 'object',
    required: ['dismissed', 'ids', 'skipped'],
    properties: {
      dismissed: { type: 'integer', description: 'How many failures this call dismissed.' },
      ids: { type: 'array', items: { type: 'string' } },
      skipped: {
        type: 'array',
        description: 'Named or matched failures not dismissed (not open any more, or unknown), with why.',
        items: {
          type: 'object',
          required: ['id', 'message'],
          properties: { id: { type: 'string' }, message: { type: 'string' } },
        },
      },
    },
  },
  BulkReplay: {
    type: 'object',
    required: ['replayed', 'errors', 'remaining'],
    properties: {
      replayed: { type: 'array', items: { type: 'string' } },
      errors: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'message'],
          properties: { id: { type: 'string' }, message: { type: 'string' } },
        },
      },
      remaining: { type: 'integer', description: 'Open failures still matching; replay again for more.' },
    },
  },
};
