import type { CanonicalProduct } from './canonical-product.js';
import { readCanonicalProduct } from './canonical-product.reader.js';

/** The bulk result broke the rules the reader relies on (a child before its parent, bad JSON). */
export class BulkResultError extends Error {
  constructor(message: string) {
    super(`bulk result: ${message}`);
    this.name = 'BulkResultError';
  }
}

/** As many variants and media as the canonical read asks for; more only set `hasNextPage`. */
const VARIANTS_KEPT = 250;
const MEDIA_KEPT = 100;

type Json = Record<string, unknown>;

interface Pending {
  product: Json;
  variants: Json[];
  media: Json[];
  moreVariants: boolean;
  moreMedia: boolean;
}

/**
 * Groups the lines of `BULK_PRODUCTS_QUERY`'s JSONL into canonical products (the shape the
 * canonical read gives), in batches of at most `batchSize`. Shopify writes a parent before its
 * children but, ungrouped, the children of a block of root objects after the whole block: a
 * root line that follows a child line starts a new block, so every product held is complete
 * then and goes out. Only one block (Shopify's are 250 products) is held, with at most 250
 * variants and 100 media each (the canonical read's pages). Throws `BulkResultError` or the
 * canonical reader's `CanonicalReadError`.
 */
export async function* bulkProducts(
  lines: AsyncIterable<string>,
  batchSize: number,
): AsyncGenerator<CanonicalProduct[], void, undefined> {
  let pending = new Map<string, Pending>();
  let sawChild = false;
  for await (const line of lines) {
    const value = parse(line);
    const parentId = value.__parentId;
    if (parentId === undefined) {
      if (sawChild) {
        yield* complete(pending, batchSize);
        pending = new Map();
        sawChild = false;
      }
      if (typeof value.id !== 'string') throw new BulkResultError('a product line without id');
      pending.set(value.id, {
        product: value,
        variants: [],
        media: [],
        moreVariants: false,
        moreMedia: false,
      });
      continue;
    }
    sawChild = true;
    const parent = typeof parentId === 'string' ? pending.get(parentId) : undefined;
    if (!parent) throw new BulkResultError(`a line for ${String(parentId)} away from its product`);
    delete value.__parentId;
    if (String(value.id).startsWith('gid://shopify/ProductVariant/')) {
      if (parent.variants.length < VARIANTS_KEPT) parent.variants.push(value);
      else parent.moreVariants = true;
    } else if (parent.media.length < MEDIA_KEPT) parent.media.push(value);
    else parent.moreMedia = true;
  }
  yield* complete(pending, batchSize);
}

function* complete(pending: Map<string, Pending>, batchSize: number): Generator<CanonicalProduct[]> {
  let batch: CanonicalProduct[] = [];
  for (const held of pending.values()) {
    const product = readCanonicalProduct({
      product: {
        ...held.product,
        variants: { nodes: held.variants, pageInfo: { hasNextPage: held.moreVariants } },
        media: { nodes: held.media, pageInfo: { hasNextPage: held.moreMedia } },
      },
    });
    if (product) batch.push(product);
    if (batch.length >= batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

function parse(line: string): Json {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new BulkResultError(`a line that is not JSON (${line.slice(0, 80)})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new BulkResultError('a line that is not an object');
  return value as Json;
}
