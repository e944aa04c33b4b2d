/**
 * The resync and link routes of the OpenAPI document, and their answers' schemas: kept apart
 * from `connector-openapi.ts` so the resync stage's routes are documented in one small place.
 * `operation` is the document's own operation builder.
 */

type OperationBuilder = (spec: {
  operationId: string;
  tag: 'admin';
  summary: string;
  description?: string;
  security: 'adminToken';
  parameters?: Array<Record<string, unknown>>;
  answer: string;
  errors?: number[];
}) => Record<string, unknown>;

const query = (name: string, description: string, schema: Record<string, unknown>, required = false) => ({
  name,
  in: 'query',
  required,
  description,
  schema,
});
const SHOP = query('shop', 'The shop (`<name>.myshopify.com`).', { type: 'string' }, true);
const RUN_ID = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
};
const MATCHES = ['sku:supplierSku', 'sku:gtin', 'barcode:supplierSku', 'barcode:gtin'];
const ids = { type: 'array', items: { type: 'string' } };

export function resyncPaths(operation: OperationBuilder): Record<string, unknown> {
  return {
    '/admin/resync': {
      post: operation({
        operationId: 'startResync',
        tag: 'admin',
        summary: 'Resync one product (`product`) or a whole shop: every product read from Shopify again',
        description:
          'A whole shop is walked through the Admin API page by page from a persisted cursor (it resumes after a restart); each product is enqueued with reason `resync`.',
        security: 'adminToken',
        parameters: [
          SHOP,
          query('product', 'Only this Shopify product id.', { type: 'string', pattern: '^[1-9][0-9]*$' }),
        ],
        answer: 'ResyncRun',
        errors: [400, 404],
      }),
    },
    '/admin/resync/{id}': {
      get: operation({
        operationId: 'getResyncRun',
        tag: 'admin',
        summary: 'A resync run and its progress (done, failed, remaining, estimate)',
        security: 'adminToken',
        parameters: [RUN_ID],
        answer: 'ResyncRun',
        errors: [404],
      }),
    },
    '/admin/resync/{id}/cancel': {
      post: operation({
        operationId: 'cancelResyncRun',
        tag: 'admin',
        summary: 'Stop a running resync before its next page (products already enqueued still sync)',
        security: 'adminToken',
        parameters: [RUN_ID],
        answer: 'ResyncRun',
        errors: [404, 409],
      }),
    },
    '/admin/link': {
      post: operation({
        operationId: 'linkCatalog',
        tag: 'admin',
        summary:
          "Link the shop's products to records already in the catalog (first run), or report it (`dryRun`)",
        description:
          'Scans the catalog account by keyset (500 per search), matches each Shopify product by `match`, enters the matches in the sku map with their own supplierSku, then starts a whole-shop resync (unless `resync=false`). A dry run writes nothing.',
        security: 'adminToken',
        parameters: [
          SHOP,
          query('match', 'Shopify field : catalog field (default CONNECTOR_LINK_MATCH).', { enum: MATCHES }),
          query('dryRun', 'Report only.', { type: 'boolean', default: false }),
          query('resync', 'Start a whole-shop resync after linking.', { type: 'boolean', default: true }),
        ],
        answer: 'LinkReport',
        errors: [400, 404],
      }),
    },
  };
}

export const RESYNC_SCHEMAS: Record<string, Record<string, unknown>> = {
  ResyncRun: {
    type: 'object',
    required: [
      'id',
      'shop',
      'scope',
      'productId',
      'state',
      'pages',
      'walkDone',
      'readMode',
      'bulkAttempts',
      'listed',
      'done',
      'failed',
      'remaining',
      'callsPerProduct',
      'etaSeconds',
      'error',
      'createdAt',
      'finishedAt',
    ],
    properties: {
      id: { type: 'string', pattern: '^[1-9][0-9]*$' },
      shop: { type: 'string' },
      scope: { enum: ['product', 'shop'] },
      productId: { type: ['string', 'null'] },
      state: { enum: ['running', 'done', 'cancelled', 'failed'] },
      pages: { type: 'integer', description: 'Shopify pages listed so far.' },
      walkDone: { type: 'boolean', description: 'Every product listed: `remaining` is exact.' },
      readMode: {
        enum: ['pages', 'bulk', 'bulk-fallback', null],
        description:
          'How the shop is read: pages (at most CONNECTOR_BULK_THRESHOLD products), one bulk query, or pages after a bulk query failed twice; null until decided.',
      },
      bulkAttempts: {
        type: 'array',
        description:
          "The run's bulk operations and how each ended (`completed`, `FAILED:<errorCode>`, `download:<status>`, …).",
        items: {
          type: 'object',
          required: ['operationId', 'outcome'],
          properties: { operationId: { type: ['string', 'null'] }, outcome: { type: 'string' } },
        },
      },
      listed: { type: 'integer' },
      done: { type: 'integer', description: 'Listed products whose sync finished.' },
      failed: {
        type: 'integer',
        description: 'Listed products with an open sync failure since they were enqueued.',
      },
      remaining: { type: 'integer' },
      callsPerProduct: { type: ['number', 'null'], description: 'Catalog calls per synced product so far.' },
      etaSeconds: {
        type: ['integer', 'null'],
        description:
          'Remaining products times the calls per product (at least 1) at CONNECTOR_CATALOG_RATE_PER_SECOND (a lower bound while walking); null once ended.',
      },
      error: { type: ['string', 'null'] },
      createdAt: { type: 'string', format: 'date-time' },
      finishedAt: { type: ['string', 'null'], format: 'date-time' },
    },
  },
  LinkReport: {
    type: 'object',
    required: [
      'shop',
      'dryRun',
      'match',
      'catalog',
      'shopifyProducts',
      'shopifyRead',
      'counts',
      'linked',
      'created',
      'updated',
      'deleted',
      'conflicts',
      'resyncRunId',
    ],
    properties: {
      shop: { type: 'string' },
      dryRun: { type: 'boolean' },
      match: {
        type: 'object',
        properties: { shopify: { enum: ['sku', 'barcode'] }, catalog: { enum: ['supplierSku', 'gtin'] } },
      },
      catalog: {
        type: 'object',
        properties: { records: { type: 'integer' }, searches: { type: 'integer' } },
      },
      shopifyProducts: { type: 'integer' },
      shopifyRead: {
        enum: ['bulk', 'pages'],
        description: 'One bulk query (more than CONNECTOR_BULK_THRESHOLD products), or pages.',
      },
      counts: {
        type: 'object',
        properties: Object.fromEntries(
          ['linked', 'created', 'updated', 'deleted', 'conflicts'].map((k) => [k, { type: 'integer' }]),
        ),
      },
      linked: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            productId: { type: 'string' },
            records: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  kind: { enum: ['simple', 'parent', 'variant'] },
                  shopifyVariantId: { type: ['string', 'null'] },
                  skuId: { type: 'string' },
                  supplierSku: { type: 'string' },
                },
              },
            },
          },
        },
      },
      created: {
        ...ids,
        description: 'Products no record matched (the sync creates them); at most 200 listed.',
      },
      updated: { ...ids, description: 'Products the map already holds.' },
      deleted: { ...ids, description: 'Products the map holds that Shopify no longer has.' },
      conflicts: {
        type: 'array',
        items: { type: 'object', properties: { productId: { type: 'string' }, reason: { type: 'string' } } },
      },
      resyncRunId: { type: ['string', 'null'] },
    },
  },
};
