import { operation } from '../openapi/openapi-operation.js';

const tag = 'Portal: bulk fixtures';
const security = 'portalToken' as const;

/** OpenAPI paths of the bulk fixture routes. */
export const BULK_PATHS: Record<string, Record<string, unknown>> = {
  '/portal/v1/accounts/{id}/products/bulk': {
    post: operation({
      operationId: 'portalBulkLoadProducts',
      tag,
      security,
      summary:
        'Load many products and variants at once, with blames, sources, enrichment states and timestamps',
      params: ['id'],
      body: {
        type: 'object',
        required: ['products'],
        properties: {
          products: {
            type: 'array',
            items: {
              type: 'object',
              required: ['supplierSku'],
              properties: {
                supplierSku: { type: 'string' },
                parentSupplierSku: { type: 'string' },
                attributes: { type: 'array', items: { type: 'object' } },
                createdAt: { type: 'integer' },
                updatedAt: { type: 'integer' },
                dataEnrichment: { type: 'object' },
              },
            },
          },
        },
      },
      data: {
        type: 'object',
        properties: { created: { type: 'integer' }, skuIds: { type: 'array', items: { type: 'string' } } },
      },
      errors: [400, 404, 409],
    }),
  },
  '/portal/v1/accounts/{id}/products': {
    delete: operation({
      operationId: 'portalDeleteAllProducts',
      tag,
      security,
      summary: 'Remove every product and variant of the account',
      params: ['id'],
      errors: [404],
    }),
  },
};
