/**
 * Global ids as Shopify's Admin API accepts them. Every `ID` input must be a global id
 * (`gid://shopify/Product/123`); anything else fails the whole request before it runs, in
 * graphql-ruby's words ("Invalid global id `123`", from the `ID` scalar's coercion error, as
 * Shopify answers: e.g. https://github.com/inspireui/support/issues/676 and
 * https://github.com/statamic-rad-pack/shopify/issues/110). Where the sandbox knows which
 * resource an argument names (below), a gid of another type fails the same way.
 */

/** The shape of a Shopify global id: `gid://shopify/<Type>/<id>`. */
const GID = /^gid:\/\/shopify\/([A-Za-z][A-Za-z0-9]*)\/([^/\s?]+)(\?\S*)?$/;

/** Resources `tagsAdd`/`tagsRemove` accept (their `id` argument's description, 2026-07). */
const TAGGABLE = ['Order', 'DraftOrder', 'Customer', 'Product', 'Article', 'DiscountNode'] as const;

/**
 * The gid types an `ID` input must name, by field coordinate and input path (list positions
 * left out): `Mutation.productUpdate` → `product.id` → `Product`. Other `ID` inputs need only
 * be gids.
 */
export const EXPECTED_GID_TYPES: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  'QueryRoot.product': { id: ['Product'] },
  'QueryRoot.productVariant': { id: ['ProductVariant'] },
  'QueryRoot.webhookSubscription': { id: ['WebhookSubscription'] },
  'Mutation.productUpdate': { 'product.id': ['Product'], 'input.id': ['Product'] },
  'Mutation.productVariantsBulkUpdate': {
    productId: ['Product'],
    'variants.id': ['ProductVariant'],
    'variants.optionValues.optionId': ['ProductOption'],
  },
  'Mutation.tagsAdd': { id: TAGGABLE },
  'Mutation.tagsRemove': { id: TAGGABLE },
  'Mutation.webhookSubscriptionUpdate': { id: ['WebhookSubscription'] },
  'Mutation.webhookSubscriptionDelete': { id: ['WebhookSubscription'] },
};

/** graphql-ruby's coercion message for a value the `ID` scalar refuses. */
export function invalidGlobalId(value: unknown): string {
  return `Invalid global id \`${typeof value === 'string' ? value : JSON.stringify(value)}\``;
}

/**
 * Why a value is not an acceptable `ID` here: not a gid at all, or (when `expected` is given)
 * not a numeric gid of one of those types. Undefined when it is fine.
 */
export function globalIdProblem(value: unknown, expected: readonly string[] | undefined): string | undefined {
  const text = typeof value === 'number' && Number.isInteger(value) ? String(value) : value;
  if (typeof text !== 'string') return invalidGlobalId(value);
  const match = GID.exec(text);
  if (!match) return invalidGlobalId(text);
  if (expected && !(expected.includes(match[1]) && /^\d+$/.test(match[2]))) return invalidGlobalId(text);
  return undefined;
}

/** The expected types at `chain` (`product.id`) of an argument of the field `coordinate`. */
export function expectedGidTypes(
  coordinate: string | undefined,
  chain: string,
): readonly string[] | undefined {
  return coordinate ? EXPECTED_GID_TYPES[coordinate]?.[chain] : undefined;
}
