import type { CanonicalMedia } from '../../product-sync/plan/index.js';
import type { VariantImages } from '../model/product-images.js';

/** The read answered something that is not the shape the media queries ask for. */
export class MediaReadError extends Error {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`product media read: ${path} ${problem}`);
    this.name = 'MediaReadError';
  }
}

type Json = Record<string, unknown>;

/**
 * The product media read's answer (`readProductMedia` of `clients/shopify`) as the product's
 * images in Shopify's order (images only; other media left out), each field checked. Null when
 * the product does not exist. Throws `MediaReadError`.
 */
export function productImagesOf(data: unknown): { productId: string; images: CanonicalMedia[] } | null {
  const root = object(data, 'data');
  if (root.product === null) return null;
  const product = object(root.product, 'product');
  const nodes = array(object(product.media, 'product.media').nodes, 'product.media.nodes');
  const images: CanonicalMedia[] = [];
  nodes.forEach((value, i) => {
    const path = `product.media.nodes[${i}]`;
    const node = object(value, path);
    if (node.mediaContentType !== 'IMAGE') return;
    const image =
      node.image === null || node.image === undefined ? null : object(node.image, `${path}.image`);
    images.push({
      id: gid(node.id, `${path}.id`, 'MediaImage'),
      alt: nullableString(node.alt, `${path}.alt`),
      url: image ? string(image.url, `${path}.image.url`) : null,
    });
  });
  return { productId: gid(product.id, 'product.id', 'Product'), images };
}

/**
 * The variant media read's answer (`readVariantMedia` of `clients/shopify`): the variants that
 * have images of their own. Null when the product does not exist. Throws `MediaReadError`.
 */
export function variantImagesOf(data: unknown): VariantImages[] | null {
  const root = object(data, 'data');
  if (root.product === null) return null;
  const product = object(root.product, 'product');
  const nodes = array(object(product.variants, 'product.variants').nodes, 'product.variants.nodes');
  const variants: VariantImages[] = [];
  nodes.forEach((value, i) => {
    const path = `product.variants.nodes[${i}]`;
    const node = object(value, path);
    const media = array(object(node.media, `${path}.media`).nodes, `${path}.media.nodes`);
    const mediaIds = media.map((m, j) =>
      gid(object(m, `${path}.media.nodes[${j}]`).id, `${path}.media.nodes[${j}].id`),
    );
    if (mediaIds.length > 0)
      variants.push({ variantId: gid(node.id, `${path}.id`, 'ProductVariant'), mediaIds });
  });
  return variants;
}

function object(value: unknown, path: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new MediaReadError(path, 'is not an object');
  return value as Json;
}

function array(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw new MediaReadError(path, 'is not a list');
  return value;
}

function string(value: unknown, path: string): string {
  if (typeof value !== 'string') throw new MediaReadError(path, 'is not a string');
  return value;
}

function nullableString(value: unknown, path: string): string | null {
  return value === null || value === undefined ? null : string(value, path);
}

function gid(value: unknown, path: string, type?: string): string {
  const text = string(value, path);
  const kind = /^gid:\/\/shopify\/([A-Za-z]+)\/\d+$/.exec(text)?.[1];
  if (!kind || (type !== undefined && kind !== type))
    throw new MediaReadError(path, `is not a ${type ?? 'Shopify'} gid: "${text}"`);
  return text;
}
