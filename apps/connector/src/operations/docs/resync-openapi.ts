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
const SHOP_OR_BODY = query('shop', 'The shop (`<name>.myshopify.com`; required, here or in the JSON body).', {
  type: 'string',
});
const DRY_RUN = query(
  'dryRun',
  '`true`: a dry run (issue 31): every product is read and planned as its sync would, no write is sent, nothing changes but the run; its plan shows in `GET /admin/resync/{id}`. Here or in the JSON body.',
  { type: 'boolean', default: false },
);
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
          'A whole shop is walked through the Admin API page by page from a persisted cursor (it resumes after a restart); each product is enqueued with reason `resync`. With `dryRun=true` the walk reads pages (never one bulk query) and each product is planned instead of enqueued: the sku map, sync states, planned writes and the catalog stay as they are. The parameters may also come in a JSON body (`{"shop": ..., "product": ..., "dryRun": true}`); the query wins.',
        security: 'adminToken',
        parameters: [
          SHOP_OR_BODY,
          query('product', 'Only this Shopify product id.', { type: 'string', pattern: '^[1-9][0-9]*$' }),
          DRY_RUN,
        ],
        answer: 'ResyncRun',
        errors: [400, 404],
      }),
    },
    '/admin/resync/{id}': {
      get: operation({
        operationId: 'getResyncRun',
        tag: 'admin',
        summary:
          'A resync or reconciliation run and its progress (done, failed, remaining, estimate); a dry run with its plan',
        description:
          "A dry run's `plan` lists its products with calls, 100 at a time by product id (`planAfter`: the previous page's `nextPlanAfter`); its counts are whole.",
        security: 'adminToken',
        parameters: [
          RUN_ID,
          query('planAfter', "A dry run's plan from after this product id.", {
            type: 'string',
            pattern: '^[1-9][0-9]*$',
          }),
        ],
        answer: 'ResyncRun',
        errors: [400, 404],
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
    '/admin/reconcile': {
      post: operation({
        operationId: 'startReconcile',
        tag: 'admin',
        summary: "The shop's reconciliation now, as a run (`scope: reconcile`), or its dry run (`dryRun`)",
        description:
          'Missed changes (products updated since the checkpoint the sku map has not seen) and missed deletions (products the map holds that Shopify no longer lists), found as the scheduled reconciliation finds them (without its skip of a run soon after the last), are listed in the run (`GET /admin/resync/{id}`) and enqueued with reason `reconcile`; the checkpoint moves. A dry run plans each instead, sends nothing and leaves the checkpoint (a shop without one finds nothing). The parameters may also come in a JSON body.',
        security: 'adminToken',
        parameters: [SHOP_OR_BODY, DRY_RUN],
        answer: 'ResyncRun',
        errors: [400, 404],
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
      'dryRun',
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
      'plan',
    ],
    properties: {
      id: { type: 'string', pattern: '^[1-9][0-9]*$' },
      shop: { type: 'string' },
      scope: { enum: ['product', 'shop', 'reconcile'] },
      productId: { type: ['string', 'null'] },
      dryRun: { type: 'boolean', description: 'A dry run: reads and plans, sends no write.' },
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
      plan: {
        oneOf: [{ type: 'null' }, { $ref: '#/components/schemas/ResyncRunPlan' }],
        description: "A dry run's plan so far; null for a run that is not a dry run.",
      },
    },
  },
  ResyncRunPlan: {
    type: 'object',
    required: ['counts', 'products', 'nextPlanAfter'],
    properties: {
      counts: {
        type: 'object',
        required: ['products', 'changed', 'creates', 'uploads', 'patches', 'deletes', 'total'],
        properties: {
          products: { type: 'integer', description: 'Products planned so far.' },
          changed: { type: 'integer', description: 'Of those, products with at least one call.' },
          creates: { type: 'integer' },
          uploads: {
            type: 'integer',
            description: 'Image uploads the media job after each sync would make.',
          },
          patches: { type: 'integer' },
          deletes: { type: 'integer' },
          total: { type: 'integer' },
        },
      },
      products: {
        type: 'array',
        items: {
          type: 'object',
          required: ['productId', 'found', 'result', 'detail', 'calls'],
          properties: {
            productId: { type: 'string' },
            found: { type: 'boolean', description: 'Shopify still has it (not: its records are deleted).' },
            result: { type: 'string' },
            detail: { type: ['string', 'null'] },
            calls: {
              type: 'array',
              description: 'The catalog calls live would send, in order, with the record before and after.',
              items: { $ref: '#/components/schemas/PlannedCall' },
            },
          },
        },
      },
      nextPlanAfter: { type: ['string', 'null'], description: 'The next page: `planAfter=<this>`.' },
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
