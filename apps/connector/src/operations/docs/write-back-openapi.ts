import { operation, query } from './openapi-operation.js';

const nullableObject = { type: ['object', 'null'] };

/** The write-back's admin routes (issue 31): one product's push now, or its plan (dry run). */
export const WRITE_BACK_PATHS: Record<string, Record<string, unknown>> = {
  '/admin/products/{id}/write-back': {
    post: operation({
      operationId: 'writeBackProduct',
      tag: 'admin',
      summary: "Run one product's write-back now; with dryRun=true, answer the mutations it would send",
      description:
        "Reads the product's catalog records and its Shopify targets, decides, and (not a dry run, shop live) " +
        "sends the mutations, under the product's lock. A dry run sends and stores nothing: `planned` lists each " +
        "mutation (document name, variables) with each target's value before and after. A shop in shadow " +
        'records the plan as planned writes instead of sending it. `shop` and `dryRun` may also come in a JSON body. ' +
        '400: a bad or missing parameter; 404: not a Shopify product id; 409 product_busy: the product is being ' +
        "synced or pushed; 422 write_back_rejected: Shopify refused a write (its messages); 503 not_ready: the shop's " +
        'mapping is not checked yet, shopify_unavailable: writes not confirmed.',
      security: 'adminToken',
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[1-9][0-9]*$' } },
        query('shop', '`<name>.myshopify.com` (required, here or in the body)'),
        query('dryRun', '`true`: plan only (default `false`)', { enum: ['true', 'false'] }),
      ],
      answer: 'WriteBackRun',
      errors: [400, 404, 409, 422, 503],
    }),
  },
};

/** JSON Schemas of the write-back answers. */
export const WRITE_BACK_SCHEMAS: Record<string, unknown> = {
  WriteBackRun: {
    type: 'object',
    required: [
      'shop',
      'productId',
      'mode',
      'dryRun',
      'written',
      'settled',
      'conflicts',
      'skipped',
      'failed',
      'planned',
    ],
    properties: {
      shop: { type: 'string' },
      productId: { type: 'string' },
      mode: { enum: ['live', 'shadow'] },
      dryRun: { type: 'boolean' },
      written: { type: 'integer', description: 'Targets written (0 on a dry run or in shadow).' },
      settled: { type: 'integer' },
      conflicts: { type: 'integer', description: "Targets a merchant's edit holds back." },
      skipped: { type: 'integer' },
      failed: { type: 'integer' },
      planned: {
        type: 'array',
        description: 'The mutations a live push would send (dry run or shadow), in order; empty once sent.',
        items: {
          type: 'object',
          required: ['kind', 'method', 'path', 'body', 'before', 'after'],
          properties: {
            kind: {
              type: 'string',
              description: '`metafieldsSet`, `productUpdate`, `tagsAdd`, ... or `conflict`',
            },
            method: { enum: ['MUTATION', 'HELD'] },
            path: { type: 'string', description: 'The GraphQL document: `WriteBackMetafieldsSet`, ...' },
            body: { ...nullableObject, description: 'The variables.' },
            before: {
              ...nullableObject,
              description: 'Each target its value now (`@<variant id>`: a variant).',
            },
            after: { ...nullableObject, description: 'Each target its value once written.' },
          },
        },
      },
    },
  },
};
