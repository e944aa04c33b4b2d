import { CatalogErrorCode } from '#lib/catalog-contract';

/**
 * The HTTP status (also the envelope's `errorCode`) of each `error.code`: the spec's where it
 * names one (docs/catalog-api.md, "Errors"), the sandbox's choice for its gaps (README, "Spec
 * gaps"). A CatalogApiError takes its status from here, so status and code cannot disagree.
 */
export const CATALOG_ERROR_STATUS: Readonly<Record<CatalogErrorCode, number>> = {
  [CatalogErrorCode.PARENT_NOT_FOUND]: 404,
  [CatalogErrorCode.INVALID_VARIANT_ATTRIBUTE]: 400,
  [CatalogErrorCode.VARIANT_LIMIT_EXCEEDED]: 400,
  [CatalogErrorCode.INVALID_QUERY_STRUCTURE]: 400,
  [CatalogErrorCode.UNSUPPORTED_OPERATOR]: 400,
  [CatalogErrorCode.PAGINATION_LIMIT_EXCEEDED]: 400,
  // Never an HTTP answer: it is a record's outcome in an enrichment run.
  [CatalogErrorCode.ENRICHMENT_FAILED]: 422,
  [CatalogErrorCode.UNAUTHORIZED]: 401,
  [CatalogErrorCode.FORBIDDEN]: 403,
  [CatalogErrorCode.PRODUCT_NOT_FOUND]: 404,
  [CatalogErrorCode.VARIANT_NOT_FOUND]: 404,
  [CatalogErrorCode.NOT_FOUND]: 404,
  [CatalogErrorCode.UNKNOWN_ATTRIBUTE]: 400,
  [CatalogErrorCode.INVALID_ATTRIBUTE_VALUE]: 400,
  [CatalogErrorCode.MISSING_REQUIRED_ATTRIBUTE]: 400,
  [CatalogErrorCode.DUPLICATE_SUPPLIER_SKU]: 409,
  [CatalogErrorCode.AMBIGUOUS_SUPPLIER_SKU]: 409,
  [CatalogErrorCode.VALIDATION_ERROR]: 400,
  [CatalogErrorCode.MALFORMED_JSON]: 400,
  [CatalogErrorCode.METHOD_NOT_ALLOWED]: 405,
  [CatalogErrorCode.UNSUPPORTED_MEDIA_TYPE]: 415,
  [CatalogErrorCode.PAYLOAD_TOO_LARGE]: 413,
  [CatalogErrorCode.RATE_LIMIT_EXCEEDED]: 429,
  [CatalogErrorCode.UPLOAD_NOT_FOUND]: 404,
  [CatalogErrorCode.API_KEY_LIMIT_EXCEEDED]: 409,
  [CatalogErrorCode.CONFLICT]: 409,
  [CatalogErrorCode.INTERNAL_ERROR]: 500,
};
