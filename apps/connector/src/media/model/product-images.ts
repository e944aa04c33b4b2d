import type { CanonicalMedia } from '../../product-sync/plan/index.js';

/**
 * A product's images as the media step needs them: Shopify's gallery order (only images; videos
 * and 3D models have no place in the catalog's gallery), and which variants have images of their
 * own. `images[].id` is the MediaImage gid, the image map's Shopify media id.
 */
export interface ProductImages {
  /** `gid://shopify/Product/<digits>` */
  productId: string;
  /** In Shopify's order. `url` is null while Shopify is still processing the image. */
  images: CanonicalMedia[];
  /** Variants with images of their own; absent or empty `mediaIds` means none. */
  variantImages: VariantImages[];
}

/** The images one variant has of its own (MediaImage gids, in order). */
export interface VariantImages {
  /** `gid://shopify/ProductVariant/<digits>` (or the numeric id). */
  variantId: string;
  mediaIds: string[];
}
