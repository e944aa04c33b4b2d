import type { OptionRecord, VariantRecord } from '../products/product.model.js';
import { variantTitle } from '../products/product.model.js';

/** Shopify's limits and uniqueness rule for a product's variants. */
export const MAX_VARIANTS = 2048;

export function variantProblems(variants: VariantRecord[]): string[] {
  const problems: string[] = [];
  if (variants.length > MAX_VARIANTS) problems.push(`A product can have at most ${MAX_VARIANTS} variants`);
  const seen = new Set<string>();
  for (const variant of variants) {
    const key = variant.optionValues.join('\u0000');
    if (seen.has(key)) problems.push(`The variant '${variantTitle(variant)}' already exists.`);
    seen.add(key);
  }
  return problems;
}

/** Options named `names`, keeping ids by position, with the values the variants use, in order. */
export function rebuildOptions(
  previous: OptionRecord[],
  names: string[],
  variants: VariantRecord[],
  newId: () => number,
): OptionRecord[] {
  return names.map((name, index) => {
    const values: string[] = [];
    for (const variant of variants) {
      const value = variant.optionValues[index];
      if (value !== undefined && !values.includes(value)) values.push(value);
    }
    return { id: previous[index]?.id ?? newId(), name, position: index + 1, values };
  });
}
