import type { ShopMode } from '../../platform/config/shop-mode.js';

/** One attribute a planned write changes. */
export interface FieldDiffDto {
  field: string;
  /** Null: the record has no value for it (or does not exist yet). */
  before: string | string[] | null;
  /** Null: the value is cleared (or the record deleted). */
  after: string | string[] | null;
}

/** One catalog record of a product, as the planned writes leave it. */
export interface PreviewRecordDto {
  supplierSku: string;
  /** The planned calls for it, in order (`POST /v1/products`, ...). */
  calls: string[];
  diffs: FieldDiffDto[];
  /** Its attributes once every planned write is sent; null: deleted. */
  finalState: Record<string, unknown> | null;
}

/** One product's planned writes. */
export interface PreviewProductDto {
  productId: string;
  plannedAt: string;
  records: PreviewRecordDto[];
}

/** `GET /admin/shops/{shop}/preview`: what a shop in shadow would have sent (issue 31). */
export interface ShopPreviewDto {
  shop: string;
  mode: ShopMode;
  counts: { creates: number; patches: number; deletes: number; total: number };
  products: PreviewProductDto[];
}
