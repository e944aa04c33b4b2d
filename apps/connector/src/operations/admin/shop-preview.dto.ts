import type { ShopMode } from '../../platform/config/shop-mode.js';

/** One attribute a planned write changes. */
export interface FieldDiffDto {
  field: string;
  /** Null: the record has no value for it (or does not exist yet). */
  before: string | string[] | null;
  /** Null: the value is cleared (or the record deleted). */
  after: string | string[] | null;
}

/** The image an upload row uploads: Shopify's media id, where its bytes come from. */
export interface PreviewImageDto {
  shopifyMediaId: string;
  sourceUrl: string | null;
}

/**
 * One catalog record of a product (`catalog`), or the product's write-back targets in Shopify
 * (`shopify`: supplierSku empty, fields named by target, `@<variant id>` for a variant's), as the
 * planned writes leave it; or (`kind: 'upload'`) one image the media step would upload: its
 * `image`, the record whose planned gallery holds it (`supplierSku`; empty when none does) and
 * the image map entry it leaves (`finalState`: `shopifyMediaId`, `sourceUrl`, `fileId`).
 */
export interface PreviewRecordDto {
  kind: 'record' | 'upload';
  source: 'catalog' | 'shopify';
  supplierSku: string;
  /** `upload` rows: the image uploaded. */
  image?: PreviewImageDto;
  /** The planned calls for it, in order (`POST /v1/products`, `MUTATION WriteBackMetafieldsSet`, ...). */
  calls: string[];
  diffs: FieldDiffDto[];
  /** Its attributes once every planned write is sent; null: deleted (an upload: its image map entry). */
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
  counts: {
    creates: number;
    patches: number;
    deletes: number;
    /** Media uploads held back. */
    uploads: number;
    /** Write-back targets a live push would write, in all and by target (`seo.title`, `$app:catalog.material`). */
    writeBacks: { total: number; byTarget: Record<string, number> };
    /** Write-backs a merchant's edit holds back. */
    conflicts: number;
    /** Values the mapping cannot map, over the planned records. */
    mappingGaps: number;
    /** Planned writes in all. */
    total: number;
  };
  products: PreviewProductDto[];
}
