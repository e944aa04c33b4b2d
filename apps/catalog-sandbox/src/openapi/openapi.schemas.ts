import {
  AttributeClass,
  AttributeType,
  Blame,
  CategoryScope,
  EnrichmentStatus,
  SortOrder,
  SourceType,
} from '#lib/catalog-contract';

/** Reusable OpenAPI component schemas of the catalog API (contract: docs/catalog-api.md). */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const int = { type: 'integer' };
const str = { type: 'string' };
const platformId = { type: 'string', pattern: '^[A-Z]{2}\\d{8}$' };
const operatorObject = {
  type: 'object',
  description: 'Operators: $eq, $ne, $gt, $gte, $lt, $lte, $in, $nin, $exists, $regex (linear-time engine).',
  properties: {
    $eq: {},
    $ne: {},
    $gt: {},
    $gte: {},
    $lt: {},
    $lte: {},
    $in: { type: 'array', items: {} },
    $nin: { type: 'array', items: {} },
    $exists: { type: 'boolean' },
    $regex: str,
  },
  additionalProperties: false,
};

export const SCHEMAS: Record<string, unknown> = {
  AttributeValue: {
    description: 'Prices and numbers are strings; media is an array of image ids; null clears.',
    oneOf: [str, { type: 'array', items: str }, { type: 'null' }],
  },
  AttributeInput: {
    type: 'object',
    required: ['key', 'value'],
    properties: { key: str, value: ref('AttributeValue') },
  },
  AttributeEntry: {
    type: 'object',
    required: ['key', 'value'],
    properties: {
      key: str,
      value: ref('AttributeValue'),
      blame: { enum: Object.values(Blame) },
      sources: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            id: str,
            type: {
              enum: Object.values(SourceType),
            },
          },
        },
      },
      inherited: { type: 'boolean' },
    },
  },
  AttributeSummary: {
    type: 'object',
    properties: {
      enrichableTotal: int,
      enrichableCompleted: int,
      enrichableCompletionRate: { type: 'number' },
    },
  },
  DataEnrichment: {
    type: 'object',
    properties: {
      taskId: platformId,
      status: { enum: Object.values(EnrichmentStatus) },
      completedAt: int,
    },
  },
  ProductRecord: {
    type: 'object',
    required: [
      'id',
      'skuId',
      'supplierSku',
      'parentSkuId',
      'createdAt',
      'updatedAt',
      'attributeSummary',
      'attributes',
    ],
    properties: {
      id: str,
      skuId: platformId,
      supplierSku: str,
      parentSkuId: { oneOf: [platformId, { type: 'null' }] },
      createdAt: int,
      updatedAt: int,
      attributeSummary: ref('AttributeSummary'),
      dataEnrichment: ref('DataEnrichment'),
      attributes: { type: 'array', items: ref('AttributeEntry') },
    },
  },
  VariantCreateResponse: {
    allOf: [
      ref('ProductRecord'),
      {
        type: 'object',
        properties: {
          parentSupplierSku: str,
          inheritedAttributes: { type: 'array', items: ref('AttributeEntry') },
        },
      },
    ],
  },
  DeletionResponse: {
    type: 'object',
    properties: { skuId: platformId, supplierSku: str, status: { const: 'deleted' }, deletedAt: int },
  },
  ProductWriteRequest: {
    type: 'object',
    required: ['product'],
    properties: {
      product: {
        type: 'object',
        required: ['supplierSku'],
        properties: { supplierSku: str, attributes: { type: 'array', items: ref('AttributeInput') } },
      },
    },
  },
  VariantCreateRequest: {
    type: 'object',
    required: ['parentSupplierSku', 'supplierSku'],
    properties: {
      parentSupplierSku: str,
      supplierSku: str,
      attributes: { type: 'array', items: ref('AttributeInput') },
    },
  },
  OperatorObject: operatorObject,
  ProductFilter: {
    type: 'object',
    properties: {
      supplierSku: ref('OperatorObject'),
      skuId: ref('OperatorObject'),
      createdAt: ref('OperatorObject'),
      updatedAt: ref('OperatorObject'),
      keyword: str,
      attributes: {
        type: 'array',
        items: { type: 'object', properties: { key: ref('OperatorObject'), value: ref('OperatorObject') } },
      },
      dataEnrichment: {
        type: 'object',
        properties: { status: ref('OperatorObject'), completedAt: ref('OperatorObject') },
      },
      attributeSummary: { type: 'object', properties: { enrichableCompletionRate: ref('OperatorObject') } },
    },
  },
  Pagination: { type: 'object', properties: { limit: { type: 'integer', maximum: 500 }, offset: int } },
  PaginationResponse: {
    type: 'object',
    properties: { limit: int, offset: int, total: int, hasMore: { type: 'boolean' } },
  },
  ProductSearchRequest: {
    type: 'object',
    properties: {
      filter: ref('ProductFilter'),
      pagination: ref('Pagination'),
      sort: {
        type: 'object',
        properties: {
          field: { enum: ['createdAt', 'updatedAt', 'dataEnrichment.completedAt'] },
          order: { enum: Object.values(SortOrder) },
        },
      },
    },
  },
  AttributeSearchRequest: {
    type: 'object',
    properties: {
      filter: {
        type: 'object',
        properties: {
          linkedCategories: { type: 'array', items: str },
          categoryScopes: { type: 'array', items: { enum: Object.values(CategoryScope) } },
          option: { type: 'object', properties: { variantable: {} } },
          'option.variantable': { description: 'true, or {"$exists": false}' },
          key: { type: 'object', properties: { $eq: str } },
        },
      },
      pagination: ref('Pagination'),
      sort: {
        type: 'object',
        properties: {
          field: { enum: ['createdAt', 'key', 'displayName'] },
          order: { enum: Object.values(SortOrder) },
        },
      },
    },
  },
  AttributeDefinition: {
    type: 'object',
    properties: {
      key: str,
      displayName: str,
      type: { enum: Object.values(AttributeType) },
      class: { enum: Object.values(AttributeClass) },
      option: {
        type: 'object',
        properties: {
          disabled: { type: 'boolean' },
          variantable: { const: true },
          values: { type: 'array', items: str },
        },
      },
      categories: { oneOf: [{ type: 'array', items: str }, { type: 'null' }] },
      ai: { type: 'object', properties: { enabled: { type: 'boolean' }, instructions: str } },
      createdAt: int,
      scope: { enum: Object.values(CategoryScope) },
    },
  },
  TaxonomyNode: {
    type: 'object',
    properties: {
      id: str,
      name: str,
      description: str,
      children: { type: 'array', items: ref('TaxonomyNode') },
      createdAt: int,
    },
  },
  UploadPrepareRequest: {
    type: 'object',
    required: ['fileName'],
    properties: {
      fileName: { type: 'string', pattern: '\\.(jpg|jpeg|png|gif|webp|bmp|tiff)$' },
      skuIds: { type: 'array', items: platformId, maxItems: 100, uniqueItems: true },
      addToMediaGallery: { type: 'boolean' },
    },
  },
  UploadPrepareResponse: {
    type: 'object',
    properties: { uploadUrl: str, expiresIn: { const: 900 }, fileName: str, finalUrl: str, uploadId: str },
  },
  UploadStatusResponse: {
    type: 'object',
    properties: { fileId: platformId, key: str, originalName: str, size: int, format: str, createdAt: int },
  },
  ErrorEnvelope: {
    type: 'object',
    required: ['errorCode', 'error'],
    properties: {
      errorCode: { type: 'integer', description: 'The HTTP status' },
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: str,
          message: str,
          suggestion: str,
          attribute_key: str,
          current_count: int,
          supported_operators: { type: 'array', items: str },
          details: { type: 'object' },
        },
      },
    },
  },
};
