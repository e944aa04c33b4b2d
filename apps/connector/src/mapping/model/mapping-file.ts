import type { ProductSourceField, VariantSourceField } from './source-fields.js';

/**
 * A shop's mapping file as read (`parseMappingFile`), before it is checked against the catalog
 * account. Field names are those of the canonical product read (GraphQL). Inbound entries
 * (`product`, `variant`) make the merchant the owner of a Shopify field; `writeBack` entries make
 * the catalog's AI content the owner of one (issue 15 fills in their behaviour; the format only
 * ever gains entries and keys).
 */
export interface MappingFile {
  version: 1;
  /** The shop the file is for (`demo.myshopify.com`), when it says. */
  shop: string | null;
  supplierSku: SupplierSkuSettings;
  /** Product-level fields, in file order. */
  product: FieldEntry[];
  /** Variant-level fields, in file order. */
  variant: FieldEntry[];
  /** Variant options by option name (`variant.options.<Name>`). */
  options: OptionEntry[];
  writeBack: WriteBackEntry[];
  /** Which products sync (issue 30); null: every product of the synced statuses. */
  scope: ProductScope | null;
  /** Line of each entry in the file (by entry path), for messages; not part of the configuration. */
  lines?: ReadonlyMap<string, number>;
}

/** How catalog `supplierSku`s are made for new records (existing records keep theirs). */
export interface SupplierSkuSettings {
  /**
   * `shopify-ids` (default): `<prefix>:product:<id>` and `<prefix>:variant:<id>`, stable and
   * unique. `variant-sku`: a variant's SKU where present and unique within the shop, otherwise
   * the derived one.
   */
  strategy: 'shopify-ids' | 'variant-sku';
  /** Defaults to the shop's myshopify handle (`demo` for `demo.myshopify.com`). */
  prefix: string | null;
}

/** A value map: Shopify value -> catalog value (`null`: no value, and no gap). */
export type ValueMap = ReadonlyArray<readonly [from: string, to: string | null]>;

/** What is done with the settings every value-producing entry shares. */
export interface ValueSettings {
  /** The catalog attribute key. */
  attribute: string;
  values: ValueMap | null;
  /** Value map and allowed values match case-insensitively unless this is true. */
  caseSensitive: boolean;
  /** A MULTI_SELECT item with no match: `gap` (the attribute is left out, a gap recorded) or `drop`. */
  unknownValues: 'gap' | 'drop';
}

/** A Shopify field -> catalog attribute. */
export interface FieldEntry extends ValueSettings {
  /** Names the entry in messages and configuration hashes: `product.vendor`, `variant.barcode[1]`. */
  path: string;
  level: 'product' | 'variant';
  field: ProductSourceField | VariantSourceField;
  /** PRICE only: `shop` appends the shop's currency, a code (`EUR`) appends that code. */
  currency: 'shop' | string | null;
  /** Sent when the Shopify field is empty. */
  default: string | null;
  /** Variant entries: `firstVariant` also puts the first variant's value on the parent record. */
  parent: 'none' | 'firstVariant';
}

/** A variant option (by name, or one of its aliases, matched case-insensitively) -> attribute. */
export interface OptionEntry extends ValueSettings {
  /** `variant.options.<Name>` */
  path: string;
  name: string;
  aliases: string[];
}

/** Where an approved catalog value goes in Shopify (issue 15). */
export type WriteBackTarget =
  | { kind: 'field'; field: 'title' | 'descriptionHtml' | 'seo.title' | 'seo.description' }
  | { kind: 'tags' }
  | { kind: 'metafield'; namespace: string; key: string; type: string };

/** A catalog attribute whose approved values are pushed to Shopify. */
export interface WriteBackEntry {
  /** `writeBack.product.<attribute>` or `writeBack.variant.<attribute>` */
  path: string;
  level: 'product' | 'variant';
  attribute: string;
  target: WriteBackTarget;
  /**
   * After a merchant edits the target in Shopify: `keep` (default) leaves the edit alone and
   * records a conflict; `overwrite` pushes later catalog values over it.
   */
  merchantEdits: 'keep' | 'overwrite';
  /**
   * Metafield targets: the definition the connector makes sure exists (issue 30), so the merchant
   * sees and edits the metafield in the admin; null for other targets.
   */
  metafieldDefinition: MetafieldDefinitionSettings | null;
}

/** How a metafield target's definition is created (`name`, `description`, `storefront` in the file). */
export interface MetafieldDefinitionSettings {
  /** Shown in the admin; default: the catalog attribute's key. */
  name: string;
  description: string | null;
  /** Storefront access (themes, the Storefront API): `NONE` (default) or `PUBLIC_READ`. */
  storefront: 'NONE' | 'PUBLIC_READ';
}

/** Shopify product statuses a scope may name. */
export type ScopeStatus = 'ACTIVE' | 'UNLISTED' | 'DRAFT' | 'ARCHIVED';

/**
 * Which of a shop's products sync (`scope` in the mapping file). Every criterion given must hold
 * (AND); within a list any value will do (OR); an empty list asks nothing. Tags, vendors and
 * product types compare ignoring case and surrounding spaces, as Shopify's search does.
 */
export interface ProductScope {
  tags: string[];
  vendors: string[];
  productTypes: string[];
  /** Collections by handle (`summer`) or id (`gid://shopify/Collection/1`; bare digits become that). */
  collections: ScopeCollection[];
  /** Shopify standard product categories (`gid://shopify/TaxonomyCategory/aa-1-13-8`), matched exactly (not their descendants). */
  categories: string[];
  /** Overrides `CONNECTOR_SYNC_STATUSES` for the shop; null: the variable decides. */
  statuses: ScopeStatus[] | null;
  /** A product metafield whose value must equal `value` (a flag: `value: "true"`). */
  metafield: { namespace: string; key: string; value: string } | null;
}

/** A scoped collection, as the file names it. */
export type ScopeCollection = { kind: 'id'; id: string } | { kind: 'handle'; handle: string };
