import type { AttributeDefinition, AttributeType, TaxonomyNode } from '#lib/catalog-contract';
import type { CatalogConfiguration } from '../../src/mapping/check-mapping.js';

/**
 * Test support: the configuration the catalog sandbox's seeded `demo` account answers (attribute
 * search and taxonomy), trimmed to what mapping checks read. `demo-mapping.medium.spec.ts`
 * compares it with a real sandbox, so unit tests cannot drift from the seed.
 */
export function demoCatalogConfiguration(): CatalogConfiguration {
  return {
    attributes: DEMO_ATTRIBUTES.map((a) => structuredClone(a)),
    taxonomy: structuredClone(DEMO_TAXONOMY),
  };
}

function def(
  key: string,
  type: AttributeType,
  option: { variantable?: true; values?: string[]; disabled?: boolean } = {},
): AttributeDefinition {
  const { disabled = false, ...rest } = option;
  return {
    key,
    displayName: key,
    type,
    class: 'CUSTOM',
    option: { disabled, ...rest },
    categories: null,
    ai: { enabled: false },
    createdAt: 0,
  };
}

const SIZES = ['XXS', 'XS', 'S', 'M', 'L', 'XL', 'XXL', '3XL', 'One Size'];
const NUMBER_SIZES = [
  '36',
  '37',
  '38',
  '39',
  '40',
  '41',
  '42',
  '43',
  '44',
  '45',
  '46',
  '28',
  '30',
  '32',
  '34',
];
const COLOURS = [
  'Black',
  'White',
  'Grey',
  'Navy',
  'Blue',
  'Red',
  'Green',
  'Yellow',
  'Orange',
  'Pink',
  'Purple',
];
const AI_TAGS = [
  'bestseller',
  'new',
  'eco',
  'organic-cotton',
  'vegan',
  'premium',
  'basics',
  'limited-edition',
];

export const DEMO_ATTRIBUTES: readonly AttributeDefinition[] = [
  def('name', 'TEXT'),
  def('brand', 'TEXT'),
  def('description', 'RICH_TEXT'),
  def('price', 'PRICE', { variantable: true }),
  def('supplierSku', 'TEXT'),
  def('skuId', 'TEXT'),
  def('productCategory', 'TREE_NODE'),
  def('externalCategory', 'TEXT'),
  def('media', 'MEDIA_GALLERY', { variantable: true }),
  def('productModel', 'TEXT', { variantable: true }),
  def('size', 'DROPDOWN', { variantable: true, values: [...SIZES, ...NUMBER_SIZES] }),
  def('color', 'DROPDOWN', {
    variantable: true,
    values: [...COLOURS, 'Brown', 'Beige', 'Multicolour'],
  }),
  def('gtin', 'TEXT', { variantable: true }),
  def('compareAtPrice', 'PRICE', { variantable: true }),
  def('weightGrams', 'NUMBER', { variantable: true }),
  def('variantTitle', 'TEXT', { variantable: true }),
  def('material', 'TEXT'),
  def('careInstructions', 'LONG_TEXT'),
  def('fit', 'DROPDOWN', { values: ['Slim', 'Regular', 'Relaxed', 'Oversized'] }),
  def('neckline', 'DROPDOWN', { values: ['Crew', 'V-neck', 'Henley', 'Polo', 'Scoop'] }),
  def('occasions', 'MULTI_SELECT', { values: ['Casual', 'Work', 'Sport', 'Evening', 'Outdoor', 'Travel'] }),
  def('releaseDate', 'DATE'),
  def('availableFrom', 'DATETIME'),
  def('manufacturerUrl', 'URL'),
  def('bladeLengthCm', 'NUMBER'),
  def('legacyCode', 'TEXT', { disabled: true }),
  def('aiTitle', 'TEXT'),
  def('aiDescription', 'RICH_TEXT'),
  def('seoTitle', 'TEXT'),
  def('seoDescription', 'LONG_TEXT'),
  def('aiTags', 'MULTI_SELECT', { values: [...AI_TAGS, 'gift-idea', 'summer', 'winter'] }),
  def('aiBulletPoints', 'LONG_TEXT'),
];

function node(id: string, children: TaxonomyNode[] = []): TaxonomyNode {
  return { id, name: id, description: '', children, createdAt: 0 };
}

export const DEMO_TAXONOMY: TaxonomyNode[] = [
  node('apparel', [
    node('apparel-tops', [
      node('apparel-tops-tshirts'),
      node('apparel-tops-shirts'),
      node('apparel-tops-sweaters'),
    ]),
    node('apparel-bottoms', [node('apparel-bottoms-jeans'), node('apparel-bottoms-shorts')]),
  ]),
  node('footwear', [node('footwear-sneakers'), node('footwear-boots')]),
  node('home', [node('home-kitchen', [node('home-kitchen-cookware'), node('home-kitchen-knives')])]),
];
