import { CatalogLimits } from '#lib/catalog-contract';

/** A variant as grouping sees it: its position and the option values it selects (with their ids). */
export interface GroupableVariant {
  /** `gid://shopify/ProductVariant/<digits>` */
  id: string;
  position: number;
  /** In the product's option order; `optionValueId` is the ProductOptionValue gid (survives renames). */
  selectedOptions: ReadonlyArray<{ name: string; value: string; optionValueId: string }>;
}

/** One catalog parent of a product too large for one: a first-option value's variants, or a chunk of them. */
export interface VariantGroup {
  /** `<option value digits>` or `<option value digits>-<chunk>` from the second chunk on; `all` for one parent. */
  key: string;
  /** The parent's supplierSku: deterministic from the product and the group key. */
  supplierSku: string;
  /** The group's variant gids, in position order. */
  variantIds: string[];
}

/**
 * Why: Shopify allows 2,048 variants per product, the catalog 200 per parent. A product over the
 * limit becomes several parents: its variants grouped by the value of the first option (one parent
 * per colour, say), keyed by the option value's id (a renamed value moves nothing), and a group
 * over the limit chunked by position (the first 200, the next 200, ...). Groups are ordered by
 * their first variant's position; each has a supplierSku of its own
 * (`<prefix>:product:<id>:<value digits>[-<chunk>]`). A product within the limit is one group,
 * the product's own supplierSku, as before. A variant whose group changes (another first-option
 * value, or pushed into the next chunk by insertions before it) is a delete and a create: the
 * catalog cannot re-parent a variant.
 * `planGroupedSync` plans a split product from these groups (the `split` large-product policy).
 */
export function variantGroups(input: {
  prefix: string;
  /** The product's numeric id (decimal digits). */
  productId: string;
  variants: readonly GroupableVariant[];
  limit?: number;
}): VariantGroup[] {
  const limit = input.limit ?? CatalogLimits.VARIANTS_PER_PARENT;
  const base = `${input.prefix}:product:${input.productId}`;
  const ordered = [...input.variants].sort((a, b) => a.position - b.position);
  if (ordered.length <= limit)
    return [{ key: 'all', supplierSku: base, variantIds: ordered.map((v) => v.id) }];
  const byValue = new Map<string, GroupableVariant[]>();
  for (const variant of ordered) {
    const valueKey = digitsOf(variant.selectedOptions[0]?.optionValueId ?? 'none');
    const members = byValue.get(valueKey) ?? [];
    members.push(variant);
    byValue.set(valueKey, members);
  }
  const groups: VariantGroup[] = [];
  // A Map keeps insertion order: groups come in their first variant's position order.
  for (const [valueKey, members] of byValue) {
    for (let chunk = 0; chunk * limit < members.length; chunk++) {
      const key = chunk === 0 ? valueKey : `${valueKey}-${chunk + 1}`;
      groups.push({
        key,
        supplierSku: `${base}:${key}`,
        variantIds: members.slice(chunk * limit, (chunk + 1) * limit).map((v) => v.id),
      });
    }
  }
  return groups;
}

/** The digits of a gid (`gid://shopify/ProductOptionValue/123` -> `123`), or the text itself. */
function digitsOf(id: string): string {
  return /\/(\d+)$/.exec(id)?.[1] ?? id;
}
