/** JSON Schemas of the operations answers (health details, a product's status). */
const DEPENDENCY = {
  type: 'object',
  required: ['status', 'checkedAt', 'details'],
  properties: {
    status: { enum: ['up', 'degraded', 'down', 'unknown'] },
    checkedAt: { type: ['string', 'null'], format: 'date-time' },
    details: {
      type: 'object',
      description:
        'Catalog: reachable, keyAccepted (null until an answer), breaker, shops. Shopify: reachable, tokenAccepted, error.',
    },
  },
};

/** Merged into the document's component schemas. */
export const OPERATIONS_SCHEMAS: Record<string, unknown> = {
  HealthDetails: {
    type: 'object',
    required: ['ready', 'checks', 'dependencies'],
    properties: {
      ready: { type: 'boolean' },
      checks: {
        type: 'object',
        properties: { database: { enum: ['up', 'down'] }, queue: { enum: ['up', 'down'] } },
      },
      dependencies: {
        type: 'object',
        description: '`catalog:<URL>#<key fingerprint>` and `shopify:<shop>` entries.',
        additionalProperties: DEPENDENCY,
      },
    },
  },
};
