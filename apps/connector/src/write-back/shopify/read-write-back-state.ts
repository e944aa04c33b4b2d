import type {
  WriteBackProductVariables,
  WriteBackVariantsVariables,
} from '../../clients/shopify/write-back-calls.js';
import type { ResolvedWriteBackEntry } from '../../mapping/index.js';
import type { ShopifyMetafield, ShopifyProductState } from '../decide/write-back-state.js';

/** Variables of the product read and (when variant entries exist) of the variant read (`clients/shopify/write-back-calls.ts`). */
export interface WriteBackReadVariables {
  product: WriteBackProductVariables;
  /** Null when no entry targets variant metafields (no variant read needed). */
  variants: WriteBackVariantsVariables | null;
}

/** Variants per page of the variant read (the catalog's limit of 200 per parent: two pages). */
export const VARIANT_PAGE = 100;

/** The read's variables for a product and the mapping's write-back entries. */
export function writeBackReadVariables(
  productId: string,
  entries: readonly ResolvedWriteBackEntry[],
): WriteBackReadVariables {
  const keysOf = (level: 'product' | 'variant') => [
    ...new Set(
      entries.flatMap((e) =>
        e.level === level && e.target.kind === 'metafield' ? [`${e.target.namespace}.${e.target.key}`] : [],
      ),
    ),
  ];
  const productKeys = keysOf('product');
  const variantKeys = keysOf('variant');
  return {
    product: {
      id: productId,
      keys: productKeys,
      keyCount: Math.max(1, productKeys.length),
      withMetafields: productKeys.length > 0,
    },
    variants:
      variantKeys.length === 0
        ? null
        : {
            id: productId,
            keys: variantKeys,
            keyCount: variantKeys.length,
            first: VARIANT_PAGE,
            after: null,
          },
  };
}

/** Thrown when an answer does not have the shape the documents ask for. */
export class WriteBackReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WriteBackReadError';
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads the `data` of the product read and of each variant page into the targets' current
 * state, or null when the product does not exist. Returns the next variant cursor when the
 * variant read has another page.
 */
export function readWriteBackState(
  productData: unknown,
  variantPages: readonly unknown[] = [],
): ShopifyProductState | null {
  if (!isObj(productData)) throw new WriteBackReadError('the product read has no data');
  const product = productData.product;
  if (product === null) return null;
  if (!isObj(product) || typeof product.id !== 'string')
    throw new WriteBackReadError('product must be an object with an id');
  const seo = isObj(product.seo) ? product.seo : {};
  const metafields = metafieldsOf(product.id, product.metafields, 'product.metafields');
  const variantIds: string[] = [];
  for (const [index, page] of variantPages.entries()) {
    const variants = isObj(page) && isObj(page.product) ? page.product.variants : undefined;
    if (!isObj(variants) || !Array.isArray(variants.nodes))
      throw new WriteBackReadError(`variant page ${index} has no product.variants.nodes`);
    for (const node of variants.nodes) {
      if (!isObj(node) || typeof node.id !== 'string')
        throw new WriteBackReadError(`variant page ${index}: a variant without id`);
      variantIds.push(node.id);
      metafields.push(...metafieldsOf(node.id, node.metafields, `variants.nodes[].metafields`));
    }
  }
  return {
    productId: product.id,
    title: stringOr(product.title, ''),
    descriptionHtml: stringOr(product.descriptionHtml, ''),
    seo: { title: nullableString(seo.title), description: nullableString(seo.description) },
    tags: Array.isArray(product.tags) ? product.tags.filter((t): t is string => typeof t === 'string') : [],
    metafields,
    variantIds,
  };
}

/** The cursor of the next variant page, or null when the page was the last. */
export function nextVariantCursor(page: unknown): string | null {
  const variants = isObj(page) && isObj(page.product) ? page.product.variants : undefined;
  const info = isObj(variants) && isObj(variants.pageInfo) ? variants.pageInfo : undefined;
  return info?.hasNextPage === true && typeof info.endCursor === 'string' ? info.endCursor : null;
}

function metafieldsOf(ownerId: string, connection: unknown, at: string): ShopifyMetafield[] {
  if (connection === undefined || connection === null) return [];
  if (!isObj(connection) || !Array.isArray(connection.nodes))
    throw new WriteBackReadError(`${at} has no nodes`);
  return connection.nodes.map((node, i) => {
    if (!isObj(node)) throw new WriteBackReadError(`${at}.nodes[${i}] is not an object`);
    for (const field of ['namespace', 'key', 'type', 'value', 'compareDigest'] as const) {
      if (typeof node[field] !== 'string')
        throw new WriteBackReadError(`${at}.nodes[${i}].${field} must be a string`);
    }
    return {
      ownerId,
      namespace: node.namespace as string,
      key: node.key as string,
      type: node.type as string,
      value: node.value as string,
      compareDigest: node.compareDigest as string,
    };
  });
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

function nullableString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
