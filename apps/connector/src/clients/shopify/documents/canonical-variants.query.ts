import { type CanonicalSources, NO_EXTRA_SOURCES, variantNodes } from './canonical-product.query.js';

/**
 * Why: a connection page holds at most 250 variants and Shopify allows 2,048 per product, so a
 * product over 250 (split into catalog parents, issue 30) is read on from the canonical read's
 * `endCursor`, page by page, with the same variant selection. Requested cost:
 * `canonicalVariantsPageCost` (3 + 3 per variant, + 1 per variant and variant metafield).
 */
export function canonicalVariantsDocument(sources: CanonicalSources = NO_EXTRA_SOURCES): string {
  return /* GraphQL */ `
  query CanonicalProductVariants($id: ID!, $first: Int!, $after: String!) {
    product(id: $id) {
      variants(first: $first, after: $after, sortKey: POSITION) {
${variantNodes(sources)}        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`;
}

/** The operation name, for logs and the Shopify sandbox's request log. */
export const CANONICAL_VARIANTS_OPERATION = 'CanonicalProductVariants';

/** The requested cost of a further page of `variants` variants: the product 1, the connection 2, each variant 3 (+ its metafields). */
export function canonicalVariantsPageCost(
  variants: number,
  sources: CanonicalSources = NO_EXTRA_SOURCES,
): number {
  return 3 + (3 + sources.variantMetafields.length) * variants;
}
