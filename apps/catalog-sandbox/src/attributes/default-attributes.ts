import type { AttributeDefinitionInput } from './attribute-definition.js';

/**
 * The spec's default attributes, present in every account (class DEFAULT, so never enriched).
 * Types and variant flags are the sandbox's choices (README, gap table): SKU data (price, media,
 * productModel) is variant-specific; SPU data (name, brand, description, categories) is not.
 */
export const DEFAULT_ATTRIBUTES: readonly AttributeDefinitionInput[] = [
  { key: 'name', displayName: 'Name', type: 'TEXT', class: 'DEFAULT' },
  { key: 'brand', displayName: 'Brand', type: 'TEXT', class: 'DEFAULT' },
  {
    key: 'description',
    displayName: 'Description',
    type: 'RICH_TEXT',
    class: 'DEFAULT',
    option: { maxLength: 65_535 },
  },
  { key: 'price', displayName: 'Price', type: 'PRICE', class: 'DEFAULT', option: { variantable: true } },
  { key: 'supplierSku', displayName: 'Supplier SKU', type: 'TEXT', class: 'DEFAULT' },
  { key: 'skuId', displayName: 'SKU ID', type: 'TEXT', class: 'DEFAULT' },
  { key: 'productCategory', displayName: 'Product category', type: 'TREE_NODE', class: 'DEFAULT' },
  { key: 'externalCategory', displayName: 'External category', type: 'TEXT', class: 'DEFAULT' },
  {
    key: 'media',
    displayName: 'Media',
    type: 'MEDIA_GALLERY',
    class: 'DEFAULT',
    option: { variantable: true },
  },
  {
    key: 'productModel',
    displayName: 'Product model',
    type: 'TEXT',
    class: 'DEFAULT',
    option: { variantable: true },
  },
];

/** Written as top-level fields, never through `attributes`. */
export const SYSTEM_ATTRIBUTE_KEYS: ReadonlySet<string> = new Set(['skuId', 'supplierSku']);

/** Required on product creation. */
export const REQUIRED_ON_CREATE: readonly string[] = ['name', 'brand'];
