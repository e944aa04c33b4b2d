/** What kind of decision a draft leaves to the operator. */
export type DraftDecisionKind =
  | 'category-not-leaf'
  | 'category-unmatched'
  | 'category-ambiguous'
  | 'no-product-type'
  | 'option-unmatched'
  | 'option-values'
  | 'required-unmapped';

/**
 * Why: a drafted mapping is only a start; each thing it could not decide by names alone is one
 * of these, in words, so the operator reads one list of what is left (`connector mapping init`
 * prints it, the file carries it as TODO comments at the entry). `subject` names the Shopify
 * side (`product type "Accessories"`), `entry` where it goes in the file.
 */
export interface DraftDecision {
  kind: DraftDecisionKind;
  /** `product type "Accessories"`, `option "Material"`, `attribute "productModel"`. */
  subject: string;
  /** The mapping entry it concerns: `product.productType.values`, `variant.options`. */
  entry: string;
  /** Of the products read, how many it concerns (0: it is about the account, not products). */
  products: number;
  message: string;
  /** What it could be: leaf category ids, attribute keys, allowed values. */
  candidates: string[];
}

/** One line of the summary: `product type "Apparel" (1 product): ... (candidates: ...)`. */
export function decisionLine(decision: DraftDecision): string {
  const count =
    decision.products > 0 ? ` (${decision.products} product${decision.products === 1 ? '' : 's'})` : '';
  const candidates = decision.candidates.length > 0 ? ` (candidates: ${decision.candidates.join(', ')})` : '';
  return `${decision.subject}${count}: ${decision.message}${candidates}`;
}
