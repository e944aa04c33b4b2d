import { operation } from './openapi-operation.js';

const products = 'Products';
const variants = 'Variants';
const config = 'Configuration';
const uploads = 'Uploads';

/** The `/v1` API: every route of the spec. */
export const V1_PATHS: Record<string, Record<string, unknown>> = {
  '/v1/products': {
    post: operation({
      operationId: 'createProduct',
      tag: products,
      summary: 'Create a product (name and brand required)',
      body: 'ProductWriteRequest',
      data: 'ProductRecord',
      errors: [400, 409, 413, 415],
    }),
    patch: operation({
      operationId: 'updateProductBySupplierSku',
      tag: products,
      summary: 'Edit a product found by product.supplierSku (partial update)',
      body: 'ProductWriteRequest',
      data: 'ProductRecord',
      errors: [400, 404, 409, 413, 415],
    }),
  },
  '/v1/products/{skuId}': {
    get: operation({
      operationId: 'getProduct',
      tag: products,
      summary: 'Read a product or variant',
      params: ['skuId'],
      data: 'ProductRecord',
      errors: [404],
    }),
    patch: operation({
      operationId: 'updateProduct',
      tag: products,
      summary: 'Edit a product by skuId (a parent edit cascades to its variants)',
      params: ['skuId'],
      body: 'ProductWriteRequest',
      data: 'ProductRecord',
      errors: [400, 404, 409],
    }),
    delete: operation({
      operationId: 'deleteProduct',
      tag: products,
      summary: 'Delete a product for good',
      params: ['skuId'],
      data: 'DeletionResponse',
      errors: [404, 409],
    }),
  },
  '/v1/products/search': {
    post: operation({
      operationId: 'searchProducts',
      tag: products,
      summary: 'Search products and variants',
      body: 'ProductSearchRequest',
      data: {
        type: 'object',
        properties: {
          products: { type: 'array', items: { $ref: '#/components/schemas/ProductRecord' } },
          pagination: { $ref: '#/components/schemas/PaginationResponse' },
        },
      },
      errors: [400],
      description: 'Errors: invalid_query_structure, unsupported_operator, pagination_limit_exceeded.',
    }),
  },
  '/v1/variants': {
    post: operation({
      operationId: 'createVariant',
      tag: variants,
      summary: 'Create a variant under the parent found by parentSupplierSku',
      body: 'VariantCreateRequest',
      data: 'VariantCreateResponse',
      errors: [400, 404, 409],
    }),
  },
  '/v1/variants/{skuId}': {
    get: operation({
      operationId: 'getVariant',
      tag: variants,
      summary: 'Read a variant (parent attributes flagged inherited)',
      params: ['skuId'],
      data: 'ProductRecord',
      errors: [404],
    }),
    patch: operation({
      operationId: 'updateVariant',
      tag: variants,
      summary: 'Edit a variant (inherited attributes are ignored)',
      params: ['skuId'],
      body: 'ProductWriteRequest',
      data: 'ProductRecord',
      errors: [400, 404],
    }),
    delete: operation({
      operationId: 'deleteVariant',
      tag: variants,
      summary: 'Delete a variant',
      params: ['skuId'],
      data: 'DeletionResponse',
      errors: [404],
    }),
  },
  '/v1/attributes/search': {
    post: operation({
      operationId: 'searchAttributes',
      tag: config,
      summary: 'Search attribute definitions',
      body: 'AttributeSearchRequest',
      data: {
        type: 'object',
        properties: {
          attributes: { type: 'array', items: { $ref: '#/components/schemas/AttributeDefinition' } },
          pagination: { $ref: '#/components/schemas/PaginationResponse' },
        },
      },
      errors: [400],
    }),
  },
  '/v1/taxonomies': {
    get: operation({
      operationId: 'getTaxonomy',
      tag: config,
      summary: 'The category tree',
      data: {
        type: 'object',
        properties: { tree: { type: 'array', items: { $ref: '#/components/schemas/TaxonomyNode' } } },
      },
    }),
  },
  '/v1/upload/prepare': {
    post: operation({
      operationId: 'prepareUpload',
      tag: uploads,
      summary: 'Prepare an image upload: a signed object-store URL valid 900 s',
      body: 'UploadPrepareRequest',
      data: 'UploadPrepareResponse',
      errors: [400, 404],
    }),
  },
  '/v1/upload/status': {
    get: operation({
      operationId: 'getUploadStatus',
      tag: uploads,
      summary: 'Upload status: 404 until processing ends',
      query: [
        { name: 'uploadId', description: 'From prepare' },
        { name: 'fileName', description: 'The tracked file name from prepare' },
      ],
      data: 'UploadStatusResponse',
      errors: [400, 404],
    }),
  },
};
