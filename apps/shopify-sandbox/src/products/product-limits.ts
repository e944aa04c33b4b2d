import { slugify } from './product.model.js';

/**
 * Shopify's limits on a product's title, handle and tags, as data, and the checks both the
 * Admin GraphQL mutations and the merchant REST API apply.
 *
 * Sources (read 2026-11):
 * - At most 250 tags per product: "Product tags now have a limit of 250 per product",
 *   https://shopify.dev/changelog/product-tags-now-have-a-limit-of-250-per-product (also the
 *   messages "Tags cannot be more than 250." on create and "Tags cannot be added as the
 *   product already exceeds the new limit of 250 tags." on update).
 * - 255 characters for a title, a handle and a tag: the columns' limits, as listed in public
 *   guides (e.g. https://lettercounter.org/blog/shopify-product-description-length); the
 *   wording is Rails' ("is too long (maximum is 255 characters)"), which Shopify's REST
 *   errors use (`{"errors": {"title": ["can't be blank"]}}`).
 * - Handles: "A handle can contain letters, hyphens (`-`), and numbers, but no spaces" and a
 *   missing handle is built from the title (`ProductUpdateInput.handle` in the 2026-07 schema).
 */
export const PRODUCT_LIMITS = {
  maxTags: 250,
  maxTagLength: 255,
  maxTitleLength: 255,
  maxHandleLength: 255,
} as const;

export const PRODUCT_LIMIT_SOURCES = {
  tags: 'https://shopify.dev/changelog/product-tags-now-have-a-limit-of-250-per-product',
  lengths: 'https://lettercounter.org/blog/shopify-product-description-length',
} as const;

/** One refusal: the product field, the REST message (after the field name) and the GraphQL one. */
export interface ProductLimitProblem {
  field: 'title' | 'handle' | 'tags';
  rest: string;
  graphql: string;
}

const tooLong = (field: ProductLimitProblem['field'], label: string, max: number): ProductLimitProblem => ({
  field,
  rest: `is too long (maximum is ${max} characters)`,
  graphql: `${label} is too long (maximum is ${max} characters)`,
});

/**
 * The limits a product change breaks: `tags` is the full list the product would have (already
 * normalised), `handle` the handle as given. `change` picks Shopify's message for too many tags.
 */
export function productLimitProblems(
  input: { title?: string | null; handle?: string | null; tags?: readonly string[] },
  change: 'create' | 'update',
): ProductLimitProblem[] {
  const problems: ProductLimitProblem[] = [];
  const L = PRODUCT_LIMITS;
  if (input.title && [...input.title.trim()].length > L.maxTitleLength)
    problems.push(tooLong('title', 'Title', L.maxTitleLength));
  if (input.handle && [...input.handle].length > L.maxHandleLength)
    problems.push(tooLong('handle', 'Handle', L.maxHandleLength));
  if (input.tags) {
    if (input.tags.length > L.maxTags) {
      const message =
        change === 'create'
          ? `Tags cannot be more than ${L.maxTags}.`
          : `Tags cannot be added as the product already exceeds the new limit of ${L.maxTags} tags.`;
      problems.push({ field: 'tags', rest: message, graphql: message });
    } else if (input.tags.some((tag) => [...tag].length > L.maxTagLength)) {
      problems.push(tooLong('tags', 'Tags', L.maxTagLength));
    }
  }
  return problems;
}

/**
 * A given handle as Shopify stores it: lower case, accents dropped, every run of other
 * characters a single `-`. Undefined when nothing is left (the title then gives the handle).
 */
export function normalizeHandle(given: string): string | undefined {
  return slugify(given) || undefined;
}
