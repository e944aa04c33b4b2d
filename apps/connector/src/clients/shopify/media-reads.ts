import { PRODUCT_MEDIA_QUERY } from './documents/product-media.query.js';
import { VARIANT_MEDIA_QUERY } from './documents/variant-media.query.js';
import type { ShopAdminClient } from './shop-admin.client.js';

/** `data` of the product media read: the product's media in gallery order; `product` null when it does not exist. */
export interface ProductMediaAnswer {
  product: {
    id: string;
    media: {
      nodes: Array<{
        id: string;
        alt: string | null;
        mediaContentType: string;
        /** Only on a MediaImage; null while Shopify is still processing it. */
        image?: { url: string } | null;
      }>;
    };
  } | null;
}

/** `data` of the variant media read: each variant's own media (one at most); `product` null when it does not exist. */
export interface VariantMediaAnswer {
  product: {
    id: string;
    variants: { nodes: Array<{ id: string; media: { nodes: Array<{ id: string }> } }> };
  } | null;
}

/** Requested query costs of the two reads (see the documents), for the shop's cost pacer. */
const PRODUCT_MEDIA_COST = 502;
const VARIANT_MEDIA_COST = 802;

/**
 * Why: the one place `PRODUCT_MEDIA_QUERY` runs (the media step): the product's media, all of
 * them in one page (Shopify allows 250), 502 points.
 */
export async function readProductMedia(
  admin: Pick<ShopAdminClient, 'request'>,
  productGid: string,
): Promise<ProductMediaAnswer> {
  return admin.request<ProductMediaAnswer>(PRODUCT_MEDIA_QUERY, { id: productGid }, PRODUCT_MEDIA_COST);
}

/**
 * Why: the one place `VARIANT_MEDIA_QUERY` runs (the media step, when variants get galleries of
 * their own): each variant's own image, 200 variants, 802 points.
 */
export async function readVariantMedia(
  admin: Pick<ShopAdminClient, 'request'>,
  productGid: string,
): Promise<VariantMediaAnswer> {
  return admin.request<VariantMediaAnswer>(VARIANT_MEDIA_QUERY, { id: productGid }, VARIANT_MEDIA_COST);
}
