import type { ProductRecord } from '#lib/catalog-contract';
import type { WriteBackTarget } from '../../mapping/index.js';

/**
 * The catalog side of one mapped Shopify product: its product-level record (the simple product
 * or the parent) and, per Shopify variant, the variant's record. A simple product's one Shopify
 * variant carries the simple product's record too (it is parent and variant in one). A null
 * record is not (yet) in the catalog: nothing is pushed for it, nor retracted.
 */
export interface WriteBackSubject {
  /** `gid://shopify/Product/<id>` */
  productId: string;
  record: ProductRecord | null;
  variants: ReadonlyArray<{ variantId: string; record: ProductRecord | null }>;
}

/**
 * What the connector last did to one target of one owner for one attribute, as the push history
 * stores it (one row per shop, owner, attribute and target key). Value hashes are `valueHash`
 * of the value as it stands in Shopify after the write.
 */
export interface PushState {
  /** Shopify product or variant gid the target belongs to. */
  ownerId: string;
  attribute: string;
  /** `targetKey(target)`: `seo.title`, `tags`, `metafield:$app:catalog.material`. */
  target: string;
  /**
   * `pushed`: the target holds the value the connector wrote (`valueHash`). `retracted`: the
   * connector removed its value again. `merchant-owned`: a merchant changed the target after a
   * push; the connector leaves it alone unless the entry says `merchantEdits: overwrite` or the
   * operator overrides.
   */
  status: 'pushed' | 'retracted' | 'merchant-owned';
  /** Hash of the target's value after the connector's last write (null: empty/absent). */
  valueHash: string | null;
  /**
   * Field and metafield targets: what the merchant had before the connector's first push, put
   * back when the value is retracted (a metafield with none is deleted).
   */
  restore?: RestoreValue;
  /** Tags targets: the tags the connector added (not the merchant's), as they stand in Shopify. */
  tags?: string[];
  /** Tags targets, on an intent: the tags the write removes (to tell whether it landed). */
  removedTags?: string[];
  /**
   * An intent recorded before a write whose outcome is not known yet (a crash, a time-out): the
   * state to store once the write is seen to have landed (its `valueHash` matches Shopify).
   */
  intent?: PushState | null;
}

/** A field's or metafield's value before the connector wrote it (null: empty / no metafield). */
export type RestoreValue = { value: string | null; type?: string } | null;

/** One metafield as the connector's read shows it (namespace as Shopify answers it, resolved). */
export interface ShopifyMetafield {
  ownerId: string;
  namespace: string;
  key: string;
  type: string;
  value: string;
  compareDigest: string;
}

/** The write-back targets of one Shopify product as they stand now (`readWriteBackState`). */
export interface ShopifyProductState {
  productId: string;
  title: string;
  descriptionHtml: string;
  seo: { title: string | null; description: string | null };
  tags: string[];
  /** The product's and its variants' metafields among the mapped targets. */
  metafields: ShopifyMetafield[];
  /** The variants' ids in Shopify's order, when the variants were read (variant entries exist). */
  variantIds: string[];
}

/** The key of a target in push states: stable across restarts and mapping reloads. */
export function targetKey(target: WriteBackTarget): string {
  switch (target.kind) {
    case 'field':
      return target.field;
    case 'tags':
      return 'tags';
    case 'metafield':
      return `metafield:${target.namespace}.${target.key}`;
  }
}

/** The key of a push state: owner, attribute and target. */
export function stateKey(ownerId: string, attribute: string, target: string): string {
  return JSON.stringify([ownerId, attribute, target]);
}

/**
 * Whether a namespace Shopify answers (`app--5717453--catalog`) is the configured one
 * (`$app:catalog`): `$app` namespaces resolve to `app--<app id>[--<name>]`.
 */
export function namespaceMatches(configured: string, actual: string): boolean {
  if (configured === actual) return true;
  const app = /^\$app(?::(.+))?$/.exec(configured);
  if (!app) return false;
  const resolved = /^app--\d+(?:--(.+))?$/.exec(actual);
  return resolved !== null && (resolved[1] ?? null) === (app[1] ?? null);
}
