import type {
  ListedMetafieldDefinition,
  SampledProduct,
} from '../../clients/shopify/mapping-sample-reads.js';

/** A name seen in the shop and how many of the products read carry it. */
export interface NameCount {
  name: string;
  products: number;
}

/** An option name with the values seen under it. */
export interface SampledOption extends NameCount {
  values: NameCount[];
}

/**
 * What `connector mapping init` knows of a shop: the products read (the first ones by id),
 * their product types and options with how many products carry each, and the shop's product
 * and variant metafield definitions. Names that differ only in case or surrounding spaces are
 * one (the mapping matches them so), spelled as most products spell them.
 */
export interface ShopSample {
  shop: string;
  /** Products read. */
  products: number;
  /** Whether the shop has more products than were read. */
  more: boolean;
  productTypes: NameCount[];
  /** Products read with no product type. */
  noProductType: number;
  /** Products read with no vendor. */
  noVendor: number;
  /** Products read that have a Shopify standard category. */
  categorized: number;
  /** Options of products with more than the default variant, most products first. */
  options: SampledOption[];
  metafields: { product: ListedMetafieldDefinition[]; variant: ListedMetafieldDefinition[] };
}

/** Why: the products read, counted into what the draft matches (types, options and their values). */
export function summarizeSample(
  shop: string,
  products: readonly SampledProduct[],
  more: boolean,
  metafields: ShopSample['metafields'],
): ShopSample {
  const types = new Tally();
  const optionValues = new Map<string, Tally>();
  const optionNames = new Tally();
  let noProductType = 0;
  let noVendor = 0;
  let categorized = 0;
  for (const product of products) {
    if (product.productType.trim() === '') noProductType += 1;
    else types.add(product.productType);
    if (product.vendor.trim() === '') noVendor += 1;
    if (product.category !== null) categorized += 1;
    if (product.simple) continue;
    for (const option of product.options) {
      const key = option.name.trim().toLowerCase();
      if (key === '') continue;
      optionNames.add(option.name);
      const values = optionValues.get(key) ?? new Tally();
      for (const value of new Set(option.values.map((v) => v.trim()).filter((v) => v !== '')))
        values.add(value);
      optionValues.set(key, values);
    }
  }
  return {
    shop,
    products: products.length,
    more,
    productTypes: types.counts(),
    noProductType,
    noVendor,
    categorized,
    options: optionNames.counts().map((option) => ({
      ...option,
      values: optionValues.get(option.name.trim().toLowerCase())?.counts() ?? [],
    })),
    metafields,
  };
}

/** Counts names ignoring case and surrounding spaces, keeping the commonest spelling (the first seen on a tie). */
class Tally {
  private readonly byKey = new Map<string, { products: number; spellings: Map<string, number> }>();

  add(name: string): void {
    const spelled = name.trim();
    const key = spelled.toLowerCase();
    const entry = this.byKey.get(key) ?? { products: 0, spellings: new Map<string, number>() };
    entry.products += 1;
    entry.spellings.set(spelled, (entry.spellings.get(spelled) ?? 0) + 1);
    this.byKey.set(key, entry);
  }

  /** Most products first, then by name. */
  counts(): NameCount[] {
    return [...this.byKey.values()]
      .map((entry) => ({
        name: [...entry.spellings].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '',
        products: entry.products,
      }))
      .sort((a, b) => b.products - a.products || a.name.localeCompare(b.name));
  }
}
