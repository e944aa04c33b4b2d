import type {
  CanonicalCategory,
  CanonicalMedia,
  CanonicalMetafield,
  CanonicalOption,
  CanonicalProduct,
  CanonicalProductStatus,
  CanonicalVariant,
} from './canonical-product.js';
import {
  type CanonicalSources,
  type MetafieldSource,
  metafieldAlias,
  NO_EXTRA_SOURCES,
} from './documents/canonical-product.query.js';

/** The read answered something that is not the shape `CANONICAL_PRODUCT_QUERY` asks for. */
export class CanonicalReadError extends Error {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`canonical product read: ${path} ${problem}`);
    this.name = 'CanonicalReadError';
  }
}

const STATUSES: readonly CanonicalProductStatus[] = ['ACTIVE', 'ARCHIVED', 'DRAFT', 'UNLISTED'];
type Json = Record<string, unknown>;

/**
 * Turns the `data` of a canonical read answer into a `CanonicalProduct`, checking every field's
 * type (ids must be strings: a number would have lost digits). `sources` must be those the
 * document was built with (`canonicalProductDocument`): they name the metafield aliases. Returns
 * null when the product does not exist (`data.product` is null). Throws `CanonicalReadError`.
 */
export function readCanonicalProduct(
  data: unknown,
  sources: CanonicalSources = NO_EXTRA_SOURCES,
): CanonicalProduct | null {
  const root = object(data, 'data');
  if (root.product === null) return null;
  const p = object(root.product, 'product');
  const at = (key: string) => `product.${key}`;
  const seo = object(p.seo, at('seo'));
  const variantsConnection = object(p.variants, at('variants'));
  const nodes = array(variantsConnection.nodes, at('variants.nodes'));
  const options = array(p.options, at('options')).map((o, i) => readOption(o, `product.options[${i}]`));
  const variants = nodes.map((node, i) =>
    withValueIds(readVariant(node, `product.variants.nodes[${i}]`, sources.variantMetafields), options),
  );
  variants.sort((a, b) => a.position - b.position);
  const count = p.variantsCount === null ? null : object(p.variantsCount, at('variantsCount'));
  const pageInfo = object(variantsConnection.pageInfo, at('variants.pageInfo'));
  const more = boolean(pageInfo.hasNextPage, at('variants.pageInfo.hasNextPage'));
  return {
    id: gid(p.id, at('id'), 'Product'),
    legacyResourceId: digits(p.legacyResourceId, at('legacyResourceId')),
    title: string(p.title, at('title')),
    handle: string(p.handle, at('handle')),
    vendor: string(p.vendor, at('vendor')),
    productType: string(p.productType, at('productType')),
    descriptionHtml: string(p.descriptionHtml, at('descriptionHtml')),
    status: oneOf(p.status, at('status'), STATUSES),
    tags: array(p.tags, at('tags')).map((t, i) => string(t, `product.tags[${i}]`)),
    seo: {
      title: nullableString(seo.title, at('seo.title')),
      description: nullableString(seo.description, at('seo.description')),
    },
    createdAt: string(p.createdAt, at('createdAt')),
    updatedAt: string(p.updatedAt, at('updatedAt')),
    hasOnlyDefaultVariant: boolean(p.hasOnlyDefaultVariant, at('hasOnlyDefaultVariant')),
    options,
    variants,
    // Without a count, a further page still tells the planner the product is over its page.
    variantsCount:
      count === null ? variants.length + (more ? 1 : 0) : integer(count.count, at('variantsCount.count')),
    ...readMedia(p.media),
    ...readMetafields(p, 'product', sources.productMetafields),
    ...(sources.category ? { category: readCategory(p.category) } : {}),
    ...(sources.collections ? { collections: readCollections(p.collections) } : {}),
  };
}

/** The metafields the document asked for (aliases `mf<i>`), by `<namespace>.<key>`; nothing when none. */
function readMetafields(
  owner: Json,
  path: string,
  asked: readonly MetafieldSource[],
): { metafields?: Record<string, CanonicalMetafield | null> } {
  if (asked.length === 0) return {};
  const metafields: Record<string, CanonicalMetafield | null> = {};
  asked.forEach((source, i) => {
    const at = `${path}.${metafieldAlias(i)}`;
    const value = owner[metafieldAlias(i)];
    if (value === null || value === undefined) {
      metafields[`${source.namespace}.${source.key}`] = null;
      return;
    }
    const m = object(value, at);
    metafields[`${source.namespace}.${source.key}`] = {
      value: string(m.value, `${at}.value`),
      type: string(m.type, `${at}.type`),
    };
  });
  return { metafields };
}

function readCategory(value: unknown): CanonicalCategory | null {
  if (value === null || value === undefined) return null;
  const c = object(value, 'product.category');
  return {
    id: string(c.id, 'product.category.id'),
    name: string(c.name, 'product.category.name'),
    fullName: string(c.fullName, 'product.category.fullName'),
  };
}

/** The handles of the collections read (a further page is `hasMoreCollections`'s business). */
function readCollections(value: unknown): string[] {
  const connection = object(value, 'product.collections');
  return array(connection.nodes, 'product.collections.nodes').map((node, i) =>
    string(object(node, `product.collections.nodes[${i}]`).handle, `product.collections.nodes[${i}].handle`),
  );
}

/** Whether a read's answer holds more collections than it asked for (`pageInfo.hasNextPage`). */
export function hasMoreCollections(data: unknown): boolean {
  const product = (data as { product?: { collections?: { pageInfo?: { hasNextPage?: unknown } } } | null })
    ?.product;
  return product?.collections?.pageInfo?.hasNextPage === true;
}

/** `product.media`: its images in order; nothing when not read, or when a further page exists. */
function readMedia(value: unknown): { media?: CanonicalMedia[] } {
  if (value === undefined || value === null) return {};
  const connection = object(value, 'product.media');
  const pageInfo = object(connection.pageInfo, 'product.media.pageInfo');
  if (boolean(pageInfo.hasNextPage, 'product.media.pageInfo.hasNextPage')) return {};
  const media: CanonicalMedia[] = [];
  array(connection.nodes, 'product.media.nodes').forEach((node, i) => {
    const path = `product.media.nodes[${i}]`;
    const m = object(node, path);
    if (m.mediaContentType !== 'IMAGE') return;
    const image = m.image === null || m.image === undefined ? null : object(m.image, `${path}.image`);
    media.push({
      id: gid(m.id, `${path}.id`, 'MediaImage'),
      alt: nullableString(m.alt, `${path}.alt`),
      url: image ? string(image.url, `${path}.image.url`) : null,
    });
  });
  return { media };
}

function readOption(value: unknown, path: string): CanonicalOption {
  const o = object(value, path);
  return {
    id: gid(o.id, `${path}.id`, 'ProductOption'),
    name: string(o.name, `${path}.name`),
    position: integer(o.position, `${path}.position`),
    values: array(o.values, `${path}.values`).map((v, i) => string(v, `${path}.values[${i}]`)),
    ...(o.optionValues === undefined
      ? {}
      : {
          optionValues: array(o.optionValues, `${path}.optionValues`).map((v, i) => {
            const value = object(v, `${path}.optionValues[${i}]`);
            return {
              id: gid(value.id, `${path}.optionValues[${i}].id`, 'ProductOptionValue'),
              name: string(value.name, `${path}.optionValues[${i}].name`),
            };
          }),
        }),
  };
}

/** The variant's selected options with the ids of their values, found by option and value name. */
function withValueIds(variant: CanonicalVariant, options: readonly CanonicalOption[]): CanonicalVariant {
  return {
    ...variant,
    selectedOptions: variant.selectedOptions.map((selected) => {
      const id = options
        .find((o) => o.name === selected.name)
        ?.optionValues?.find((v) => v.name === selected.value)?.id;
      return id === undefined ? selected : { ...selected, optionValueId: id };
    }),
  };
}

/**
 * Why: a product over 250 variants is read on page by page (`canonicalVariantsDocument`); each
 * page's variants, with their values' ids from the product's options, and where the next starts.
 */
export function readCanonicalVariantsPage(
  data: unknown,
  options: readonly CanonicalOption[],
  sources: CanonicalSources = NO_EXTRA_SOURCES,
): { variants: CanonicalVariant[]; endCursor: string | null; hasNextPage: boolean } | null {
  const root = object(data, 'data');
  if (root.product === null) return null;
  const connection = object(object(root.product, 'product').variants, 'product.variants');
  const pageInfo = object(connection.pageInfo, 'product.variants.pageInfo');
  return {
    variants: array(connection.nodes, 'product.variants.nodes').map((node, i) =>
      withValueIds(readVariant(node, `product.variants.nodes[${i}]`, sources.variantMetafields), options),
    ),
    endCursor: nullableString(pageInfo.endCursor ?? null, 'product.variants.pageInfo.endCursor'),
    hasNextPage: boolean(pageInfo.hasNextPage, 'product.variants.pageInfo.hasNextPage'),
  };
}

/** The canonical read's `endCursor` of its variants page (null when it did not ask for one). */
export function variantsEndCursor(data: unknown): string | null {
  const product = object(data, 'data').product;
  if (product === null) return null;
  const info = object(object(object(product, 'product').variants, 'product.variants').pageInfo, 'pageInfo');
  return nullableString(info.endCursor ?? null, 'product.variants.pageInfo.endCursor');
}

function readVariant(value: unknown, path: string, metafields: readonly MetafieldSource[]): CanonicalVariant {
  const v = object(value, path);
  const inventoryItem = object(v.inventoryItem, `${path}.inventoryItem`);
  return {
    id: gid(v.id, `${path}.id`, 'ProductVariant'),
    legacyResourceId: digits(v.legacyResourceId, `${path}.legacyResourceId`),
    title: string(v.title, `${path}.title`),
    sku: nullableString(v.sku, `${path}.sku`),
    barcode: nullableString(v.barcode, `${path}.barcode`),
    price: string(v.price, `${path}.price`),
    compareAtPrice: nullableString(v.compareAtPrice, `${path}.compareAtPrice`),
    position: integer(v.position, `${path}.position`),
    updatedAt: string(v.updatedAt, `${path}.updatedAt`),
    selectedOptions: array(v.selectedOptions, `${path}.selectedOptions`).map((s, i) => {
      const option = object(s, `${path}.selectedOptions[${i}]`);
      return {
        name: string(option.name, `${path}.selectedOptions[${i}].name`),
        value: string(option.value, `${path}.selectedOptions[${i}].value`),
      };
    }),
    duplicateSkuCount: integer(inventoryItem.duplicateSkuCount, `${path}.inventoryItem.duplicateSkuCount`),
    ...readMetafields(v, path, metafields),
  };
}

function object(value: unknown, path: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CanonicalReadError(path, `must be an object, got ${describe(value)}`);
  }
  return value as Json;
}

function array(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw new CanonicalReadError(path, `must be a list, got ${describe(value)}`);
  return value;
}

function string(value: unknown, path: string): string {
  if (typeof value !== 'string')
    throw new CanonicalReadError(path, `must be a string, got ${describe(value)}`);
  return value;
}

function nullableString(value: unknown, path: string): string | null {
  return value === null || value === undefined ? null : string(value, path);
}

function boolean(value: unknown, path: string): boolean {
  if (typeof value !== 'boolean')
    throw new CanonicalReadError(path, `must be a boolean, got ${describe(value)}`);
  return value;
}

function integer(value: unknown, path: string): number {
  if (!Number.isSafeInteger(value))
    throw new CanonicalReadError(path, `must be an integer, got ${describe(value)}`);
  return value as number;
}

function digits(value: unknown, path: string): string {
  const text = string(value, path);
  if (!/^\d+$/.test(text)) throw new CanonicalReadError(path, `must be decimal digits, got "${text}"`);
  return text;
}

function gid(value: unknown, path: string, type: string): string {
  const text = string(value, path);
  if (!new RegExp(`^gid://shopify/${type}/\\d+$`).test(text)) {
    throw new CanonicalReadError(path, `must be a gid://shopify/${type}/<digits>, got "${text}"`);
  }
  return text;
}

function oneOf<T extends string>(value: unknown, path: string, allowed: readonly T[]): T {
  const text = string(value, path);
  if (!(allowed as readonly string[]).includes(text)) {
    throw new CanonicalReadError(path, `must be one of ${allowed.join(', ')}, got "${text}"`);
  }
  return text as T;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'number' ? `the number ${value}` : typeof value;
}
