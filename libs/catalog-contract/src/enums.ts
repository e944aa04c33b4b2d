// Enumerations of the Product Enrichment Catalog API (../shared/spec/catalog-api.md).
// Each is a const object (for runtime checks) plus a union type of its values.

export const AttributeType = {
  NUMBER: 'NUMBER',
  PRICE: 'PRICE',
  TEXT: 'TEXT',
  LONG_TEXT: 'LONG_TEXT',
  RICH_TEXT: 'RICH_TEXT',
  DATE: 'DATE',
  DATETIME: 'DATETIME',
  URL: 'URL',
  DROPDOWN: 'DROPDOWN',
  MULTI_SELECT: 'MULTI_SELECT',
  // System-managed types, not user-configurable.
  MEASURE: 'MEASURE',
  TREE_NODE: 'TREE_NODE',
  MEDIA_GALLERY: 'MEDIA_GALLERY',
} as const;
export type AttributeType = (typeof AttributeType)[keyof typeof AttributeType];

/** Types an account may configure; the others are system-managed. */
export const USER_ATTRIBUTE_TYPES: readonly AttributeType[] = [
  'NUMBER',
  'PRICE',
  'TEXT',
  'LONG_TEXT',
  'RICH_TEXT',
  'DATE',
  'DATETIME',
  'URL',
  'DROPDOWN',
  'MULTI_SELECT',
];

/** CUSTOM and LIB may be enriched; DEFAULT is the class of the built-in default attributes. */
export const AttributeClass = { CUSTOM: 'CUSTOM', LIB: 'LIB', DEFAULT: 'DEFAULT' } as const;
export type AttributeClass = (typeof AttributeClass)[keyof typeof AttributeClass];

export const Blame = {
  ENRICHMENT: 'ENRICHMENT',
  ENRICHMENT_APPROVED: 'ENRICHMENT_APPROVED',
  ENRICHMENT_REJECTED: 'ENRICHMENT_REJECTED',
} as const;
export type Blame = (typeof Blame)[keyof typeof Blame];

export const SourceType = {
  FILE_EXTRACT: 'FILE_EXTRACT',
  MEDIA: 'MEDIA',
  OFFICIAL_BRAND: 'OFFICIAL_BRAND',
  THIRD_PARTY: 'THIRD_PARTY',
  PREFERRED: 'PREFERRED',
  YOUR_DATA: 'YOUR_DATA',
} as const;
export type SourceType = (typeof SourceType)[keyof typeof SourceType];

export const EnrichmentStatus = {
  FINISHED: 'FINISHED',
  IN_PROGRESS: 'IN_PROGRESS',
  FAILED: 'FAILED',
  QUEUED: 'QUEUED',
  SKIPPED: 'SKIPPED',
} as const;
export type EnrichmentStatus = (typeof EnrichmentStatus)[keyof typeof EnrichmentStatus];

export const CategoryScope = { GLOBAL: 'GLOBAL', INHERITED: 'INHERITED', DIRECT: 'DIRECT' } as const;
export type CategoryScope = (typeof CategoryScope)[keyof typeof CategoryScope];

export const SortOrder = { ASC: 'ASC', DESC: 'DESC' } as const;
export type SortOrder = (typeof SortOrder)[keyof typeof SortOrder];

/** Default attributes present in every account. */
export const DefaultAttributeKey = {
  name: 'name',
  brand: 'brand',
  description: 'description',
  price: 'price',
  supplierSku: 'supplierSku',
  skuId: 'skuId',
  productCategory: 'productCategory',
  externalCategory: 'externalCategory',
  media: 'media',
  productModel: 'productModel',
} as const;
export type DefaultAttributeKey = (typeof DefaultAttributeKey)[keyof typeof DefaultAttributeKey];
