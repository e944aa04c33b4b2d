import type { Operator } from './filters.js';

/**
 * `error.code` values. The first group is named by the spec; the second covers what the spec
 * leaves "not shown" (see apps/catalog-sandbox/README.md, gap table).
 */
export const CatalogErrorCode = {
  // Named by the spec.
  PARENT_NOT_FOUND: 'parent_not_found',
  INVALID_VARIANT_ATTRIBUTE: 'invalid_variant_attribute',
  VARIANT_LIMIT_EXCEEDED: 'variant_limit_exceeded',
  INVALID_QUERY_STRUCTURE: 'invalid_query_structure',
  UNSUPPORTED_OPERATOR: 'unsupported_operator',
  PAGINATION_LIMIT_EXCEEDED: 'pagination_limit_exceeded',
  ENRICHMENT_FAILED: 'enrichment_failed',
  // Chosen for the spec's gaps.
  UNAUTHORIZED: 'unauthorized',
  FORBIDDEN: 'forbidden',
  PRODUCT_NOT_FOUND: 'product_not_found',
  VARIANT_NOT_FOUND: 'variant_not_found',
  NOT_FOUND: 'not_found',
  UNKNOWN_ATTRIBUTE: 'unknown_attribute',
  INVALID_ATTRIBUTE_VALUE: 'invalid_attribute_value',
  MISSING_REQUIRED_ATTRIBUTE: 'missing_required_attribute',
  DUPLICATE_SUPPLIER_SKU: 'duplicate_supplier_sku',
  AMBIGUOUS_SUPPLIER_SKU: 'ambiguous_supplier_sku',
  VALIDATION_ERROR: 'validation_error',
  MALFORMED_JSON: 'malformed_json',
  METHOD_NOT_ALLOWED: 'method_not_allowed',
  UNSUPPORTED_MEDIA_TYPE: 'unsupported_media_type',
  PAYLOAD_TOO_LARGE: 'payload_too_large',
  RATE_LIMIT_EXCEEDED: 'rate_limit_exceeded',
  UPLOAD_NOT_FOUND: 'upload_not_found',
  API_KEY_LIMIT_EXCEEDED: 'api_key_limit_exceeded',
  CONFLICT: 'conflict',
  INTERNAL_ERROR: 'internal_error',
} as const;
export type CatalogErrorCode = (typeof CatalogErrorCode)[keyof typeof CatalogErrorCode];

export interface CatalogErrorBody {
  code: CatalogErrorCode | (string & {});
  message: string;
  suggestion?: string;
  attribute_key?: string;
  current_count?: number;
  supported_operators?: readonly Operator[];
  details?: Record<string, unknown>;
}

export interface CatalogSuccess<T> {
  errorCode: 0;
  data: T;
}

export interface CatalogFailure {
  /** The HTTP status, as in the spec's examples (400, 404). */
  errorCode: number;
  error: CatalogErrorBody;
}

export type CatalogEnvelope<T> = CatalogSuccess<T> | CatalogFailure;

export function isCatalogFailure(body: unknown): body is CatalogFailure {
  if (typeof body !== 'object' || body === null) return false;
  const candidate = body as { errorCode?: unknown; error?: unknown };
  return (
    typeof candidate.errorCode === 'number' &&
    candidate.errorCode !== 0 &&
    typeof candidate.error === 'object'
  );
}
