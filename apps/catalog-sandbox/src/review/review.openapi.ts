import { operation } from '../openapi/openapi-operation.js';

const tag = 'Portal: products';
const security = 'portalToken' as const;
const params = ['id', 'skuId'];
const keys = { type: 'array', items: { type: 'string' } };

/** OpenAPI paths of the portal's product routes: read, user edit, review. */
export const REVIEW_PATHS: Record<string, Record<string, unknown>> = {
  '/portal/v1/accounts/{id}/products/{skuId}': {
    get: operation({
      operationId: 'portalGetProduct',
      tag,
      security,
      summary: 'Read a record',
      params,
      data: 'ProductRecord',
      errors: [404],
    }),
    patch: operation({
      operationId: 'portalEditProduct',
      tag,
      security,
      summary:
        'Edit as a portal user: same rules as PATCH /v1/products/{skuId}; values lose blame and sources',
      params,
      body: {
        type: 'object',
        required: ['attributes'],
        properties: { attributes: { type: 'array', items: { $ref: '#/components/schemas/AttributeInput' } } },
      },
      data: 'ProductRecord',
      errors: [400, 404],
    }),
  },
  '/portal/v1/accounts/{id}/products/{skuId}/review': {
    post: operation({
      operationId: 'portalReviewProduct',
      tag,
      security,
      summary: 'Approve or reject enriched values (blame ENRICHMENT_APPROVED / ENRICHMENT_REJECTED)',
      params,
      body: { type: 'object', properties: { approve: keys, reject: keys } },
      data: 'ProductRecord',
      errors: [400, 404],
    }),
  },
};
