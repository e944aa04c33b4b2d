import type { AttributeDefinition } from '#lib/catalog-contract';
import type { CatalogConfiguration } from '../check-mapping.js';
import { matchable, matchMetafields } from './attribute-matches.js';
import { type CategoryPair, matchProductTypes } from './category-matches.js';
import type { DraftDecision } from './draft-decision.js';
import { draftVariantSection } from './draft-variant-section.js';
import type { ShopSample } from './shop-sample.js';
import { YamlLines } from './yaml-lines.js';

/** What a draft is made from. */
export interface DraftInput {
  sample: ShopSample;
  catalog: CatalogConfiguration;
  /** When it is drafted (ISO 8601, the connector's clock): the file says so. */
  draftedAt: string;
}

/** How much of what the shop showed the draft matched by name. */
export interface DraftCount {
  matched: number;
  seen: number;
}

/** A drafted mapping file and what is left to decide. */
export interface MappingDraft {
  /** The file, YAML with comments: what `connector mapping init` writes. */
  file: string;
  decisions: DraftDecision[];
  counts: { productTypes: DraftCount; options: DraftCount; metafields: DraftCount };
  /** The catalog attributes the draft feeds, in file order. */
  attributes: string[];
}

const TEXTS = ['TEXT', 'LONG_TEXT'];
const DESCRIPTIONS = ['RICH_TEXT', 'LONG_TEXT'];

/**
 * Why: an operator connecting a real store starts from the shop and the account as they are
 * (issue 43), not from an empty file: title, vendor, description, price and barcode into the
 * account's default attributes, each product type into the leaf category of the same name, each
 * option and metafield definition into the attribute of the same name, and every required
 * attribute mapped or marked TODO. What names cannot settle is a decision, listed and marked
 * where it goes. Pure: the reads are the caller's (`MappingDrafts`).
 */
export function draftMapping(input: DraftInput): MappingDraft {
  const { sample, catalog } = input;
  const attributes = new Map(catalog.attributes.filter((d) => !d.option.disabled).map((d) => [d.key, d]));
  const byName = matchable(catalog.attributes);
  const used = new Set<string>();
  const decisions: DraftDecision[] = [];
  const required = (key: string, entry: string, message: string) =>
    decisions.push({
      kind: 'required-unmapped',
      subject: `attribute "${key}"`,
      entry,
      products: 0,
      message,
      candidates: [],
    });
  const lines = header(input);
  lines.raw(0, 'version: 1').pair(0, 'shop', sample.shop).blank();
  const handle = sample.shop.replace(/\.myshopify\.com$/i, '');
  lines.comment(
    0,
    `New records' supplierSku: ${handle}:product:<id> and ${handle}:variant:<id>, from the Shopify ids: stable and unique, unlike SKUs.`,
  );
  lines.pair(0, 'supplierSku').pair(2, 'strategy', 'shopify-ids').blank();

  lines.comment(0, 'Product fields -> attributes of the parent (or simple) product.').pair(0, 'product');
  const of = (key: string, types: readonly string[]) => {
    const d = attributes.get(key);
    return d && types.includes(d.type) ? d : undefined;
  };
  if (attributes.has('name')) {
    lines.pair(2, 'title', 'name');
    used.add('name');
  } else {
    lines.comment(2, 'TODO title: <the attribute that holds the product name>');
    required(
      'name',
      'product.title',
      'the account has no "name" attribute: the catalog creates no product without one',
    );
  }
  const brand = attributes.get('brand');
  if (brand && TEXTS.includes(brand.type)) {
    const none =
      sample.noVendor > 0 ? ` (${sample.noVendor} of the ${sample.products} products read have none)` : '';
    lines.pair(2, 'vendor').pair(4, 'attribute', 'brand');
    lines.pair(
      4,
      'default',
      'Unbranded',
      `sent when a product has no vendor${none}: the catalog needs a brand to create it`,
    );
    used.add('brand');
  } else if (brand) {
    lines.pair(
      2,
      'vendor',
      'brand',
      `TODO: brand is ${brand.type}: each vendor must be one of its values (map them under values:)`,
    );
    required(
      'brand',
      'product.vendor',
      `brand is ${brand.type}: every vendor must be one of its values, or be mapped to one`,
    );
    used.add('brand');
  } else {
    lines.comment(2, 'TODO vendor: <the attribute that holds the brand>');
    required(
      'brand',
      'product.vendor',
      'the account has no "brand" attribute: the catalog creates no product without one',
    );
  }
  if (of('description', DESCRIPTIONS)) {
    lines.pair(2, 'descriptionHtml', 'description');
    used.add('description');
  }
  const category = categoryAttribute(catalog.attributes);
  const matches = matchProductTypes(sample.productTypes, catalog.taxonomy, 'product.productType.values');
  if (category) {
    used.add(category.key);
    productTypeLines(lines, category.key, matches.pairs, matches.decisions, sample);
    decisions.push(...matches.decisions);
    if (sample.noProductType > 0)
      decisions.push({
        kind: 'no-product-type',
        subject: 'no product type',
        entry: 'product.productType',
        products: sample.noProductType,
        message: `these products have no product type, so ${category.key} gets no value (enrichment workflows need a category): give them one in Shopify`,
        candidates: [],
      });
  } else {
    lines.comment(2, 'TODO productType: <the account has no TREE_NODE attribute for the category>');
    required(
      'productCategory',
      'product.productType',
      'the account has no category attribute (TREE_NODE): enrichment workflows need a category',
    );
  }
  const external = of('externalCategory', TEXTS);
  if (external && sample.categorized > 0 && !used.has(external.key)) {
    lines.pair(2, 'category.fullName', external.key, "Shopify's standard category, as its path");
    used.add(external.key);
  }
  const productMetafields = matchMetafields(sample.metafields.product, 'product', byName, used);
  for (const draft of productMetafields.drafts)
    lines.pair(
      2,
      draft.field,
      draft.attribute.key,
      `metafield "${draft.definition.name}" (${draft.definition.type})`,
    );
  for (const d of productMetafields.unmatched)
    lines.comment(
      2,
      `not mapped: metafields.${d.namespace}.${d.key} ("${d.name}", ${d.type}): no attribute of that name`,
    );

  const variant = draftVariantSection(sample, attributes, byName, used);
  const variantText = variant.lines.toString().trimEnd();
  if (variantText !== '') {
    lines
      .blank()
      .comment(
        0,
        'Variant fields -> variant-specific attributes of each variant (of the simple product itself when it has only its default variant).',
      );
    lines.pair(0, 'variant').raw(0, variantText);
  }
  decisions.push(...variant.decisions);
  if (attributes.has('productModel') && !used.has('productModel'))
    required(
      'productModel',
      'variant.barcode',
      "no Shopify field feeds it: map the field holding a model number, GTIN or part number (a product metafield, or the barcode with parent: firstVariant when productModel is variant-specific); the catalog's enrichment needs it",
    );
  const metafieldsSeen = sample.metafields.product.length + sample.metafields.variant.length;
  return {
    file: lines.toString(),
    decisions,
    counts: {
      productTypes: { matched: matches.pairs.length, seen: sample.productTypes.length },
      options: {
        matched: variant.options.reduce((n, o) => n + 1 + o.aliases.length, 0),
        seen: sample.options.length,
      },
      metafields: {
        matched: productMetafields.drafts.length + variant.metafields.length,
        seen: metafieldsSeen,
      },
    },
    attributes: [...used],
  };
}

/** `productCategory` when it is the account's TREE_NODE, else its first TREE_NODE attribute. */
function categoryAttribute(attributes: readonly AttributeDefinition[]): AttributeDefinition | undefined {
  const trees = attributes.filter((d) => d.type === 'TREE_NODE' && !d.option.disabled);
  return trees.find((d) => d.key === 'productCategory') ?? trees[0];
}

function productTypeLines(
  lines: YamlLines,
  attribute: string,
  pairs: readonly CategoryPair[],
  decisions: readonly DraftDecision[],
  sample: ShopSample,
): void {
  lines.pair(2, 'productType').pair(4, 'attribute', attribute);
  const plural = (n: number) => `${n} product${n === 1 ? '' : 's'}`;
  if (pairs.length > 0)
    lines.pair(4, 'values', undefined, 'Shopify product type -> leaf category of the account');
  else if (sample.productTypes.length > 0)
    lines.comment(
      4,
      'values: no product type matched a leaf category by name; add "<product type>: <leaf id>" pairs under values:',
    );
  for (const pair of pairs)
    lines.pair(6, pair.type.name, pair.leafId, `${plural(pair.type.products)}: ${pair.path}`);
  for (const decision of decisions) {
    const candidates =
      decision.candidates.length > 0 ? `; candidates: ${decision.candidates.join(', ')}` : '';
    lines.comment(
      pairs.length > 0 ? 6 : 4,
      `TODO ${decision.subject} (${plural(decision.products)}): ${decision.message}${candidates}`,
    );
  }
}

function header(input: DraftInput): YamlLines {
  const { sample, catalog } = input;
  const leaves = countLeaves(catalog.taxonomy);
  const read =
    sample.products === 0
      ? 'the shop has no products yet, so no product type or option could be matched'
      : `the ${sample.products} products read (the first by id${sample.more ? '; the shop has more' : ''})`;
  return new YamlLines()
    .comment(
      0,
      `Starting mapping of ${sample.shop}, drafted by \`connector mapping init\` on ${input.draftedAt.slice(0, 10)} from ${read} and the catalog account (${catalog.attributes.length} attributes, ${leaves} leaf categories). Names were matched ignoring case, spaces and plural: read every entry.`,
    )
    .comment(
      0,
      "Each TODO is a decision left to you (mapping init printed them too). Then check the file against the account and the shop's products, before anything syncs:",
    )
    .comment(0, `  npm run connector -- check-config --shop ${sample.shop} --mapping <this file>`)
    .comment(0, 'Format: apps/connector/mappings/README.md.')
    .comment(0, '')
    .comment(
      0,
      "Required: name and brand (the catalog creates no product without them); brand and productModel (the catalog's enrichment needs them); productCategory, a leaf category (enrichment workflows need it). Each is mapped below or marked TODO.",
    );
}

function countLeaves(tree: CatalogConfiguration['taxonomy']): number {
  return tree.reduce((n, node) => n + (node.children.length === 0 ? 1 : countLeaves(node.children)), 0);
}
