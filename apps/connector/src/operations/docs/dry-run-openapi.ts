import { operation, query, ref } from './openapi-operation.js';

const state = { type: ['object', 'null'], additionalProperties: true };

/** Why: the dry-run routes of issue 31 (a product's sync now, or its plan) in the OpenAPI document. */
export const DRY_RUN_PATHS: Record<string, Record<string, unknown>> = {
  '/admin/products/{id}/sync': {
    post: operation({
      operationId: 'syncProduct',
      tag: 'admin',
      summary:
        "A product's sync now (queued, reason `operator`: 202), or with `dryRun=true` its plan at once (200), nothing sent",
      description:
        'Without dryRun (or `dryRun=false`): the sync is queued at once, no debounce; the answer is 202 with where its outcome shows. `dryRun=true`: the product is read from Shopify and planned by the code a shop in shadow plans with; the answer lists each catalog call (method, path, body) with the record before and after; nothing is sent, no sku map row or planned write changes. Both first check that the mapped records of the product exist in the catalog (one `skuId` search per 500 records): a record deleted there behind the connector is planned as a create, which the queued sync sends. `shop` may be left out when the connector serves one shop. 400: a bad id or parameter, an unknown shop.',
      security: 'adminToken',
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[1-9][0-9]{0,19}$' } },
        query('shop', 'The shop (`<name>.myshopify.com`).'),
        query('dryRun', '`true`: answer with the plan, execute nothing.', { enum: ['true', 'false'] }),
      ],
      answer: {
        mediaType: 'application/json',
        schema: { oneOf: [ref('ProductSyncPlan'), ref('ProductSyncQueued')] },
      },
      errors: [400],
    }),
  },
};

/** JSON Schemas of the dry-run answers. */
export const DRY_RUN_SCHEMAS: Record<string, unknown> = {
  PlannedCall: {
    type: 'object',
    required: ['kind', 'method', 'path', 'supplierSku', 'body', 'before', 'after'],
    properties: {
      kind: { type: 'string' },
      method: { type: 'string' },
      path: { type: 'string' },
      supplierSku: { type: ['string', 'null'] },
      body: state,
      before: state,
      after: state,
    },
  },
  ProductSyncPlan: {
    type: 'object',
    required: ['shop', 'productId', 'dryRun', 'found', 'result', 'detail', 'counts', 'calls', 'events'],
    properties: {
      shop: { type: 'string' },
      productId: { type: 'string' },
      dryRun: { const: true },
      found: { type: 'boolean' },
      result: { type: 'string' },
      detail: { type: ['string', 'null'] },
      counts: {
        type: 'object',
        required: ['creates', 'patches', 'deletes', 'total'],
        properties: {
          creates: { type: 'integer' },
          patches: { type: 'integer' },
          deletes: { type: 'integer' },
          total: { type: 'integer' },
        },
      },
      calls: { type: 'array', items: ref('PlannedCall') },
      events: { type: 'array', items: { type: 'string' } },
    },
  },
  ProductSyncQueued: {
    type: 'object',
    required: ['shop', 'productId', 'dryRun', 'queued', 'reason', 'status'],
    properties: {
      shop: { type: 'string' },
      productId: { type: 'string' },
      dryRun: { const: false },
      queued: { const: true },
      reason: { const: 'operator' },
      status: { type: 'string', description: 'The product status route, where the outcome shows' },
    },
  },
};
