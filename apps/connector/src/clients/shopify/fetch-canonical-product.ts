import { CatalogLimits } from '#lib/catalog-contract';
import type { CanonicalProduct } from './canonical-product.js';
import {
  hasMoreCollections,
  readCanonicalProduct,
  readCanonicalVariantsPage,
  variantsEndCursor,
} from './canonical-product.reader.js';
import {
  type CanonicalSources,
  canonicalProductDocument,
  canonicalReadCost,
  FIRST_READ_COLLECTIONS,
  MAX_CANONICAL_COLLECTIONS,
  MAX_CANONICAL_VARIANTS,
  NO_EXTRA_SOURCES,
} from './documents/canonical-product.query.js';
import {
  canonicalVariantsDocument,
  canonicalVariantsPageCost,
} from './documents/canonical-variants.query.js';
import type { ShopAdminClient } from './shop-admin.client.js';
import { ShopifyAdminError, ShopifyErrorCode } from './shopify-admin.error.js';

/** Variants asked for a product the connector has not synced yet (most have fewer). */
export const FIRST_READ_VARIANTS = 50;
/** Variants asked beyond those last synced: a few added since cost no second read. */
const VARIANT_SLACK = 10;
/** Shopify refuses a query whose requested cost is over 1,000 points. */
const MAX_QUERY_COST = 1000;

/**
 * What a read asks for: the variants the caller expects (null: unknown), whether it needs the
 * media, and the optional sources the shop's mapping reads (metafields, category, collections;
 * `ValidatedMapping.sources`), none when left out.
 */
export interface CanonicalReadNeeds {
  expectedVariants: number | null;
  media: boolean;
  sources?: CanonicalSources;
  /**
   * Read every variant of a product over one page (250), page by page: a product over 200 is
   * split into several catalog parents (the `split` policy) and is planned from all of them.
   */
  allVariants?: boolean;
}

/** A read's product and the requested cost of the queries it took (what the bucket was asked for). */
export interface CanonicalRead {
  product: CanonicalProduct | null;
  requestedCost: number;
}

/**
 * Why: a webhook is only a notification, so every sync (webhook, resync, reconciliation) reads
 * the product's current state through this one query, asking only for what it needs: the
 * variants it expects (those last synced plus a few, or `FIRST_READ_VARIANTS` for a new
 * product; read again with a full page when the product has more), the media only when the
 * media stage is on, and the metafields, category and collections only when the mapping maps
 * them (a product in more collections than the first read asked for is read again with 250).
 * Shopify takes a query's requested cost from the bucket when it starts, so a smaller ask is a
 * faster sync under load. Null product when Shopify no longer has it.
 */
export async function fetchCanonicalProduct(
  admin: ShopAdminClient,
  productId: string,
  needs: CanonicalReadNeeds = { expectedVariants: null, media: true },
): Promise<CanonicalRead> {
  const sources = needs.sources ?? NO_EXTRA_SOURCES;
  const fullPage = fullVariantPage(needs.media, sources);
  const first = Math.min(
    fullPage,
    Math.max(
      1,
      needs.expectedVariants === null ? FIRST_READ_VARIANTS : needs.expectedVariants + VARIANT_SLACK,
    ),
  );
  let read = await readWith(admin, productId, first, needs.media, sources, FIRST_READ_COLLECTIONS);
  let asked = first;
  const moreVariants = read.product !== null && read.product.variantsCount > first && first < fullPage;
  if (moreVariants || read.moreCollections) {
    asked = moreVariants ? fullPage : first;
    const again = await readWith(
      admin,
      productId,
      asked,
      needs.media,
      sources,
      read.moreCollections ? MAX_CANONICAL_COLLECTIONS : FIRST_READ_COLLECTIONS,
    );
    read = { ...again, requestedCost: read.requestedCost + again.requestedCost };
  }
  let product = read.product;
  let requestedCost = read.requestedCost;
  if (needs.allVariants && product !== null && product.variants.length < product.variantsCount) {
    const rest = await readRemainingVariants(admin, productId, product, read.endCursor, sources);
    product = rest.product;
    requestedCost += rest.requestedCost;
  }
  // Over the catalog's 200 variants per parent the planner reports the product; under it, a
  // page smaller than the product would plan the unread variants away.
  if (
    product !== null &&
    product.variantsCount > asked &&
    product.variantsCount <= CatalogLimits.VARIANTS_PER_PARENT
  )
    refuseShortPage(product, asked, sources);
  return { product, requestedCost };
}

/**
 * The variants after the first page, page after page from its `endCursor`, each page as large as
 * 1,000 points allow (250 at most). A page that cannot go on (no cursor) leaves the product short:
 * the planner then plans nothing (`variants-not-read`).
 */
async function readRemainingVariants(
  admin: ShopAdminClient,
  productId: string,
  product: CanonicalProduct,
  cursor: string | null,
  sources: CanonicalSources,
): Promise<{ product: CanonicalProduct | null; requestedCost: number }> {
  const perVariant = 3 + sources.variantMetafields.length;
  const page = Math.max(1, Math.min(MAX_CANONICAL_VARIANTS, Math.floor((MAX_QUERY_COST - 3) / perVariant)));
  const variants = [...product.variants];
  let after = cursor;
  let requestedCost = 0;
  while (after !== null && variants.length < product.variantsCount) {
    const cost = canonicalVariantsPageCost(page, sources);
    requestedCost += cost;
    const data = await admin.request<unknown>(
      canonicalVariantsDocument(sources),
      { id: `gid://shopify/Product/${productId}`, first: page, after },
      cost,
    );
    const read = readCanonicalVariantsPage(data, product.options, sources);
    if (read === null) return { product: null, requestedCost };
    variants.push(...read.variants);
    after = read.hasNextPage ? read.endCursor : null;
  }
  variants.sort((a, b) => a.position - b.position);
  return { product: { ...product, variants }, requestedCost };
}

/**
 * The most variants one read may ask for: 250, or fewer when the mapping's variant metafields
 * (1 point per variant each) would take the query over Shopify's 1,000 points.
 */
export function fullVariantPage(media: boolean, sources: CanonicalSources): number {
  const fixed = canonicalReadCost(0, media, sources, MAX_CANONICAL_COLLECTIONS);
  const perVariant = 3 + sources.variantMetafields.length;
  return Math.max(1, Math.min(MAX_CANONICAL_VARIANTS, Math.floor((MAX_QUERY_COST - fixed) / perVariant)));
}

/**
 * A product with more variants than a read within 1,000 points holds: planning from part of its
 * variants would remove the others from the catalog, so the sync fails, saying why.
 */
function refuseShortPage(product: CanonicalProduct, page: number, sources: CanonicalSources): never {
  throw new ShopifyAdminError(
    ShopifyErrorCode.MAX_COST_EXCEEDED,
    `product ${product.legacyResourceId} has ${product.variantsCount} variants; with the mapping's ${sources.variantMetafields.length} variant metafield(s) one read within Shopify's 1,000 points holds ${page}: map fewer variant metafields`,
    false,
  );
}

async function readWith(
  admin: ShopAdminClient,
  productId: string,
  variants: number,
  media: boolean,
  sources: CanonicalSources,
  collections: number,
): Promise<CanonicalRead & { moreCollections: boolean; endCursor: string | null }> {
  const requestedCost = canonicalReadCost(variants, media, sources, collections);
  const data = await admin.request<unknown>(
    canonicalProductDocument({ media, sources }),
    {
      id: `gid://shopify/Product/${productId}`,
      variants,
      ...(sources.collections ? { collections } : {}),
    },
    requestedCost,
  );
  return {
    product: readCanonicalProduct(data, sources),
    endCursor: variantsEndCursor(data),
    requestedCost,
    moreCollections:
      sources.collections && collections < MAX_CANONICAL_COLLECTIONS && hasMoreCollections(data),
  };
}
