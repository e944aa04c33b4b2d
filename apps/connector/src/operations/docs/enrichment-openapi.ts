/** The part of an operation the enrichment routes use (`operation` in connector-openapi.ts builds it). */
export interface EnrichmentOperationSpec {
  operationId: string;
  tag: 'admin';
  summary: string;
  description?: string;
  security: 'adminToken';
  parameters?: Array<Record<string, unknown>>;
  answer: string;
  errors?: number[];
}

const COUNT_PROPERTIES = Object.fromEntries(
  ['found', 'unmapped', 'changed', 'products', 'rechecked', 'agedOut', 'watched', 'calls'].map((k) => [
    k,
    { type: 'integer', minimum: 0 },
  ]),
);

const COUNTS = {
  type: 'object',
  description: 'What the poll found (absent until it finished).',
  properties: {
    ...COUNT_PROPERTIES,
    shops: {
      type: 'object',
      description:
        'Each shop polled: its part of the counts, and its lag after the poll (seconds; null before any checkpoint).',
      additionalProperties: {
        type: 'object',
        properties: { ...COUNT_PROPERTIES, lagSeconds: { type: ['number', 'null'] } },
      },
    },
  },
};

/** Component schemas of the enrichment poll answers. */
export const ENRICHMENT_SCHEMAS: Record<string, Record<string, unknown>> = {
  EnrichmentPollQueued: {
    type: 'object',
    required: ['id', 'status'],
    properties: { id: { type: 'string' }, status: { const: 'queued' } },
  },
  EnrichmentOverwrite: {
    type: 'object',
    required: ['shop', 'productId', 'attributes', 'status'],
    properties: {
      shop: { type: 'string' },
      productId: { type: 'string' },
      attributes: {
        type: 'array',
        items: { type: 'string' },
        description: 'Empty: every write-back attribute.',
      },
      status: { const: 'queued' },
    },
  },
  EnrichmentPoll: {
    type: 'object',
    required: [
      'id',
      'trigger',
      'status',
      'requestedAt',
      'startedAt',
      'finishedAt',
      'counts',
      'pushes',
      'error',
    ],
    properties: {
      id: { type: 'string' },
      trigger: { enum: ['schedule', 'admin'] },
      status: { enum: ['queued', 'running', 'finished', 'failed'] },
      requestedAt: { type: 'string', format: 'date-time' },
      startedAt: { type: ['string', 'null'], format: 'date-time' },
      finishedAt: { type: ['string', 'null'], format: 'date-time' },
      counts: COUNTS,
      pushes: {
        type: 'object',
        description: "The poll's push work: products still waiting for their push job, and done.",
        required: ['pending', 'done'],
        properties: { pending: { type: 'integer' }, done: { type: 'integer' } },
      },
      error: { type: ['string', 'null'] },
    },
  },
};

/** The enrichment poll's paths, built with the document's `operation`. */
export function enrichmentPaths(
  operation: (spec: EnrichmentOperationSpec) => Record<string, unknown>,
): Record<string, Record<string, unknown>> {
  return {
    '/admin/enrichment/poll': {
      post: operation({
        operationId: 'pollEnrichmentNow',
        tag: 'admin',
        summary: 'Enqueue an enrichment poll of every shop now; answers its id',
        description:
          'Finds finished enrichments and approvals in the catalog and enqueues the write-back of each product.',
        security: 'adminToken',
        answer: 'EnrichmentPollQueued',
      }),
    },
    '/admin/enrichment/overwrite': {
      post: operation({
        operationId: 'overwriteMerchantEdits',
        tag: 'admin',
        summary: "Push one product's catalog values once, over the targets a merchant edited",
        description:
          'Merchant edits win unless an operator says so: this enqueues one push of the product that may ' +
          'write over merchant-owned targets of the given write-back attributes (all when none given).',
        security: 'adminToken',
        parameters: [
          { name: 'shop', in: 'query', required: true, schema: { type: 'string' } },
          {
            name: 'productId',
            in: 'query',
            required: true,
            schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
          },
          {
            name: 'attribute',
            in: 'query',
            required: false,
            description: 'Comma-separated write-back attributes (default: all).',
            schema: { type: 'string' },
          },
        ],
        answer: 'EnrichmentOverwrite',
        errors: [400],
      }),
    },
    '/admin/enrichment/poll/{id}': {
      get: operation({
        operationId: 'getEnrichmentPoll',
        tag: 'admin',
        summary: 'Whether a poll has finished, what it found, and how much of its push work is done',
        security: 'adminToken',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        answer: 'EnrichmentPoll',
        errors: [404],
      }),
    },
  };
}
