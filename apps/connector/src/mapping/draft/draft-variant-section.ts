import type { AttributeDefinition } from '#lib/catalog-contract';
import { type MetafieldDraft, matchMetafields, matchOptions, type OptionDraft } from './attribute-matches.js';
import type { DraftDecision } from './draft-decision.js';
import type { ShopSample } from './shop-sample.js';
import { YamlLines, yamlScalar } from './yaml-lines.js';

/** What the variant section holds, for the summary. */
export interface VariantSection {
  lines: YamlLines;
  decisions: DraftDecision[];
  options: OptionDraft[];
  metafields: MetafieldDraft[];
  /** Shopify variant metafield definitions no attribute took. */
  unmatchedMetafields: number;
}

/**
 * Why: the `variant` section of a drafted mapping: price, compare-at price and barcode into the
 * account's attributes of those names (variant-specific ones only), the barcode also giving the
 * parent its productModel (the first variant's, as the reference mapping does), the variant
 * metafields and the options by name, every value that matched nothing marked TODO.
 */
export function draftVariantSection(
  sample: ShopSample,
  attributes: ReadonlyMap<string, AttributeDefinition>,
  matchable: readonly AttributeDefinition[],
  used: Set<string>,
): VariantSection {
  const lines = new YamlLines();
  const variantable = (key: string, types: readonly string[]) => {
    const d = attributes.get(key);
    return d !== undefined && !d.option.disabled && d.option.variantable === true && types.includes(d.type)
      ? d
      : undefined;
  };
  const feed = (field: string, key: string, note?: string) => {
    lines.pair(2, field, key, note);
    used.add(key);
  };
  if (variantable('price', ['PRICE']) && !used.has('price'))
    feed('price', 'price', 'add `currency: shop` to send "19.99 USD" (shops in several currencies)');
  if (variantable('compareAtPrice', ['PRICE']) && !used.has('compareAtPrice'))
    feed('compareAtPrice', 'compareAtPrice');
  const gtin = variantable('gtin', ['TEXT']) && !used.has('gtin');
  const model = variantable('productModel', ['TEXT']) && !used.has('productModel');
  if (gtin && model) {
    lines.pair(2, 'barcode');
    lines.raw(4, '- gtin');
    lines.raw(4, '- attribute: productModel');
    lines.pair(
      6,
      'parent',
      'firstVariant',
      "the parent takes the first variant's barcode, each variant its own",
    );
  } else if (gtin || model) {
    if (model)
      lines.pair(2, 'barcode').pair(4, 'attribute', 'productModel').pair(4, 'parent', 'firstVariant');
    else lines.pair(2, 'barcode', 'gtin');
  }
  if (gtin) used.add('gtin');
  if (model) used.add('productModel');

  const metafields = matchMetafields(sample.metafields.variant, 'variant', matchable, used);
  for (const draft of metafields.drafts)
    lines.pair(
      2,
      draft.field,
      draft.attribute.key,
      `metafield "${draft.definition.name}" (${draft.definition.type})`,
    );
  for (const definition of metafields.unmatched)
    lines.comment(
      2,
      `not mapped: metafields.${definition.namespace}.${definition.key} ("${definition.name}", ${definition.type}): no variant-specific attribute of that name`,
    );

  const options = matchOptions(sample.options, matchable, used);
  if (options.drafts.length > 0 || options.decisions.length > 0) {
    lines.pair(2, 'options').comment(4, 'by option name, ignoring case; values matched ignoring case');
  }
  for (const draft of options.drafts) optionLines(lines, draft);
  for (const decision of options.decisions.filter((d) => d.kind === 'option-unmatched')) {
    const candidates =
      decision.candidates.length > 0 ? `; candidates: ${decision.candidates.join(', ')}` : '';
    lines.comment(
      4,
      `TODO ${decision.subject} (${decision.products} product${decision.products === 1 ? '' : 's'}): ${decision.message}${candidates}`,
    );
  }
  return {
    lines,
    decisions: options.decisions,
    options: options.drafts,
    metafields: metafields.drafts,
    unmatchedMetafields: metafields.unmatched.length,
  };
}

function optionLines(lines: YamlLines, draft: OptionDraft): void {
  const { option, attribute } = draft;
  const count = `${option.products} product${option.products === 1 ? '' : 's'}`;
  if (draft.aliases.length === 0 && draft.values.length === 0 && draft.unmatched.length === 0) {
    lines.pair(4, option.name, attribute.key, `${count}; ${attribute.type}`);
    return;
  }
  lines.pair(4, option.name, undefined, count);
  lines.pair(6, 'attribute', attribute.key, attribute.type);
  if (draft.aliases.length > 0) lines.raw(6, `aliases: [${draft.aliases.map(yamlScalar).join(', ')}]`);
  if (draft.values.length > 0) lines.pair(6, 'values');
  for (const [from, to] of draft.values) lines.pair(8, from, to);
  for (const value of draft.unmatched) {
    lines.comment(
      draft.values.length > 0 ? 8 : 6,
      `TODO "${value.name}" (${value.products} product${value.products === 1 ? '' : 's'}) is not a value of ${attribute.key}: map it${draft.values.length > 0 ? '' : ' under values:'} to one of ${(attribute.option.values ?? []).join(', ')}`,
    );
  }
}
