import type { AttributeFilter, Pagination, ProductFilter, Sort } from './filters.js';
import type { AttributeValue } from './records.js';

export interface AttributeInput {
  key: string;
  value: AttributeValue;
}

/** Body of POST /v1/products, PATCH /v1/products and PATCH /v1/products/{skuId}. */
export interface ProductWriteRequest {
  product: {
    supplierSku: string;
    attributes: AttributeInput[];
  };
}

/** Body of POST /v1/variants (no `product` wrapper). */
export interface VariantCreateRequest {
  parentSupplierSku: string;
  supplierSku: string;
  attributes: AttributeInput[];
}

/** Body of PATCH /v1/variants/{skuId}. */
export type VariantPatchRequest = ProductWriteRequest;

export interface ProductSearchRequest {
  filter?: ProductFilter;
  pagination?: Pagination;
  sort?: Sort<ProductSortField>;
}

export type ProductSortField = 'createdAt' | 'updatedAt' | 'dataEnrichment.completedAt';

export interface AttributeSearchRequest {
  filter?: AttributeFilter;
  pagination?: Pagination;
  sort?: Sort<AttributeSortField>;
}

export type AttributeSortField = 'createdAt' | 'key' | 'displayName';

export interface UploadPrepareRequest {
  fileName: string;
  skuIds?: string[];
  addToMediaGallery?: boolean;
}
