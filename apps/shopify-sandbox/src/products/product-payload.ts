import { seededRandom } from '#lib/seeded-random';
import { toGid } from '../common/gid.js';
import { preciseUtcTime, restTime } from '../common/shop-time.js';
import type { EmptyFieldsMode } from '../config/shopify-sandbox.config.js';
import type { ImageRecord, ProductRecord, VariantRecord } from './product.model.js';
import { variantTitle } from './product.model.js';

/** Product webhooks carry full details for this many variants; `variant_gids` names them all. */
export const WEBHOOK_VARIANT_LIMIT = 100;

/** Share of products whose empty text fields are `null` rather than `""` in `mixed` mode. */
export const NULL_EMPTY_SHARE = 1 / 3;

export interface PayloadOptions {
  /** The shop's IANA time zone. */
  timeZone: string;
  /** How empty `body_html`, `product_type`, `tags` and `template_suffix` are written. */
  emptyFields: EmptyFieldsMode;
  /** Variants given in full; the rest appear only in `variant_gids`. Unlimited when absent. */
  variantLimit?: number;
}

/**
 * What an empty text field of this product is written as. Real deliveries carry `""` in most
 * captures and `null` in others; in `mixed` mode a draw seeded with the product id picks one
 * form per product, so the same product always looks the same and a shop has both.
 */
export function emptyValue(productId: number, mode: EmptyFieldsMode): '' | null {
  if (mode === 'null') return null;
  if (mode === 'empty-string') return '';
  return seededRandom(productId)() < NULL_EMPTY_SHARE ? null : '';
}

/**
 * The REST-style representation of a product, as in `products/create` and `products/update`
 * webhooks (field set and order from Shopify's docs example and a real 2025-04 payload).
 */
export function productPayload(product: ProductRecord, options: PayloadOptions): Record<string, unknown> {
  const time = (ms: number) => restTime(ms, options.timeZone);
  const limit = options.variantLimit ?? Number.POSITIVE_INFINITY;
  const images = product.images.map((image) => imagePayload(product, image, time));
  const empty = emptyValue(product.id, options.emptyFields);
  const text = (value: string | null) => (value === null || value === '' ? empty : value);
  return {
    admin_graphql_api_id: toGid('Product', product.id),
    body_html: text(product.bodyHtml),
    created_at: time(product.createdAt),
    handle: product.handle,
    id: product.id,
    product_type: text(product.productType),
    published_at: product.publishedAt === null ? null : time(product.publishedAt),
    template_suffix: text(product.templateSuffix),
    title: product.title,
    updated_at: time(product.updatedAt),
    vendor: product.vendor,
    status: product.status,
    published_scope: 'global',
    tags: text(product.tags.join(', ')),
    variants: product.variants.slice(0, limit).map((variant) => variantPayload(product, variant, time)),
    options: product.options.map((option) => ({
      name: option.name,
      id: option.id,
      product_id: product.id,
      position: option.position,
      values: [...option.values],
    })),
    images,
    image: images[0] ?? null,
    media: product.images.map((image) => mediaPayload(product, image, time)),
    variant_gids: [...product.variants]
      .sort((a, b) => b.updatedAt - a.updatedAt || a.position - b.position)
      .map((variant) => ({
        admin_graphql_api_id: toGid('ProductVariant', variant.id),
        updated_at: preciseUtcTime(variant.updatedAt),
      })),
    has_variants_that_requires_components: false,
    category: null,
  };
}

/** The `products/delete` payload: just the id. */
export function deletedProductPayload(product: ProductRecord): Record<string, unknown> {
  return { id: product.id };
}

function variantPayload(product: ProductRecord, variant: VariantRecord, time: (ms: number) => string) {
  return {
    admin_graphql_api_id: toGid('ProductVariant', variant.id),
    barcode: variant.barcode,
    compare_at_price: variant.compareAtPrice,
    created_at: time(variant.createdAt),
    id: variant.id,
    inventory_policy: variant.inventoryPolicy,
    position: variant.position,
    price: variant.price,
    product_id: product.id,
    sku: variant.sku,
    taxable: variant.taxable,
    title: variantTitle(variant),
    updated_at: time(variant.updatedAt),
    option1: variant.optionValues[0] ?? null,
    option2: variant.optionValues[1] ?? null,
    option3: variant.optionValues[2] ?? null,
    image_id: variant.imageId,
    inventory_item_id: variant.inventoryItemId,
    inventory_quantity: variant.inventoryQuantity,
    old_inventory_quantity: variant.oldInventoryQuantity,
  };
}

function imagePayload(product: ProductRecord, image: ImageRecord, time: (ms: number) => string) {
  return {
    id: image.id,
    alt: image.alt,
    position: image.position,
    product_id: product.id,
    created_at: time(image.createdAt),
    updated_at: time(image.updatedAt),
    admin_graphql_api_id: toGid('ProductImage', image.id),
    width: image.width,
    height: image.height,
    src: image.src,
    variant_ids: variantIdsOf(product, image),
  };
}

function mediaPayload(product: ProductRecord, image: ImageRecord, time: (ms: number) => string) {
  return {
    id: image.mediaId,
    product_id: product.id,
    position: image.position,
    created_at: time(image.createdAt),
    updated_at: time(image.updatedAt),
    alt: image.alt,
    status: 'READY',
    media_content_type: 'IMAGE',
    preview_image: { width: image.width, height: image.height, src: image.src, status: 'READY' },
    variant_ids: variantIdsOf(product, image),
    admin_graphql_api_id: toGid('MediaImage', image.mediaId),
  };
}

function variantIdsOf(product: ProductRecord, image: ImageRecord): number[] {
  return product.variants.filter((v) => v.imageId === image.id).map((v) => v.id);
}
