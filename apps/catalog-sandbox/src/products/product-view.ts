import type { AttributeEntry, AttributeSummary, ProductRecord } from '#lib/catalog-contract';
import type { Account } from '../accounts/account.js';
import { isEnrichable } from '../attributes/attribute-applicability.js';
import type { AttributeDef } from '../attributes/attribute-definition.js';
import type { StoredAttribute, StoredProduct } from './stored-product.js';

/**
 * Resolves a record's effective attributes. On a variant, attributes without the
 * variant-specific flag come from the parent (flagged `inherited`); variant-specific ones are
 * the variant's own, falling back to the parent's value (also flagged) when the variant has
 * none; `media` is the parent's until the variant is given its own gallery.
 */
export class ProductView {
  #defs: AttributeDef[] | undefined;
  /** Enrichable definitions by (variant?, category): the same for every record of that kind. */
  readonly #enrichable = new Map<string, ReadonlySet<AttributeDef>>();

  constructor(private readonly account: Account) {}

  parentOf(product: StoredProduct): StoredProduct | undefined {
    return product.parentSkuId === null ? undefined : this.account.products.get(product.parentSkuId);
  }

  /** The effective entry of one attribute, or undefined when it holds no value. */
  effective(
    product: StoredProduct,
    def: AttributeDef,
    parent = this.parentOf(product),
  ): AttributeEntry | undefined {
    if (def.key === 'skuId') return { key: def.key, value: product.skuId };
    if (def.key === 'supplierSku') return { key: def.key, value: product.supplierSku };
    const holder = holderOf(product, parent, def);
    const stored = holder.attributes.get(def.key);
    if (!stored) return undefined;
    const result = entry(def.key, stored);
    if (holder !== product) result.inherited = true;
    return result;
  }

  /**
   * The stored effective value of one attribute, not copied (for matching; never hand it out),
   * or undefined when it holds none. `parent` is the record's parent, resolved once by the caller.
   */
  effectiveValue(
    product: StoredProduct,
    def: AttributeDef,
    parent: StoredProduct | undefined,
  ): string | readonly string[] | undefined {
    if (def.key === 'skuId') return product.skuId;
    if (def.key === 'supplierSku') return product.supplierSku;
    return holderOf(product, parent, def).attributes.get(def.key)?.value;
  }

  /** Whether the attribute is managed by the parent on this record (read-only here). */
  isInherited(product: StoredProduct, def: AttributeDef): boolean {
    if (product.parentSkuId === null || def.system) return false;
    return !def.variantable || (def.key === 'media' && !product.ownMedia);
  }

  categoryOf(product: StoredProduct, parent = this.parentOf(product)): string | null {
    const holder = parent ?? product;
    const value = holder.attributes.get('productCategory')?.value;
    return typeof value === 'string' ? value : null;
  }

  attributes(product: StoredProduct): AttributeEntry[] {
    return this.read(product, true).attributes;
  }

  summary(product: StoredProduct): AttributeSummary {
    return this.read(product, false).summary;
  }

  record(product: StoredProduct): ProductRecord {
    const { summary, attributes } = this.read(product, true);
    const record: ProductRecord = {
      id: product.id,
      skuId: product.skuId,
      supplierSku: product.supplierSku,
      parentSkuId: product.parentSkuId,
      createdAt: product.createdAt,
      updatedAt: product.updatedAt,
      attributeSummary: summary,
      attributes,
    };
    if (product.dataEnrichment) record.dataEnrichment = { ...product.dataEnrichment };
    return record;
  }

  /** The account's definitions in response order (read once per view). */
  defs(): readonly AttributeDef[] {
    this.#defs ??= this.account.attributes.all();
    return this.#defs;
  }

  /**
   * One pass over the definitions: the summary (enrichable attributes holding a value) and,
   * when asked, the response's attribute entries (`null` ones too when responseAttributes is all).
   */
  private read(
    product: StoredProduct,
    withEntries: boolean,
  ): { summary: AttributeSummary; attributes: AttributeEntry[] } {
    const parent = this.parentOf(product);
    const enrichable = this.enrichableDefs(this.categoryOf(product, parent), product.parentSkuId !== null);
    const all = this.account.behaviour.responseAttributes === 'all';
    const attributes: AttributeEntry[] = [];
    let completed = 0;
    for (const def of this.defs()) {
      const isEnrichableDef = enrichable.has(def);
      if (!withEntries) {
        if (isEnrichableDef && this.effectiveValue(product, def, parent) !== undefined) completed += 1;
        continue;
      }
      const found = this.effective(product, def, parent);
      if (isEnrichableDef && found) completed += 1;
      if (found) attributes.push(found);
      else if (all)
        attributes.push(
          this.isInherited(product, def)
            ? { key: def.key, value: null, inherited: true }
            : { key: def.key, value: null },
        );
    }
    const total = enrichable.size;
    const rate = total === 0 ? 0 : Math.round((completed / total) * 10_000) / 100;
    return {
      summary: { enrichableTotal: total, enrichableCompleted: completed, enrichableCompletionRate: rate },
      attributes,
    };
  }

  private enrichableDefs(category: string | null, isVariant: boolean): ReadonlySet<AttributeDef> {
    const key = `${isVariant ? 'v' : 'p'}:${category ?? ''}`;
    let found = this.#enrichable.get(key);
    if (!found) {
      const { taxonomy } = this.account;
      found = new Set(this.defs().filter((def) => isEnrichable(def, category, isVariant, taxonomy)));
      this.#enrichable.set(key, found);
    }
    return found;
  }
}

/**
 * Whose stored attributes hold a record's effective value of a (non-system) attribute: its own,
 * or its parent's when the attribute is inherited on it (see ProductView).
 */
function holderOf(
  product: StoredProduct,
  parent: StoredProduct | undefined,
  def: AttributeDef,
): StoredProduct {
  if (!parent) return product;
  if (def.key === 'media' && product.ownMedia) return product;
  const inheritsAlways = !def.variantable || def.key === 'media';
  if (!inheritsAlways && product.attributes.has(def.key)) return product;
  return parent;
}

function entry(key: string, stored: StoredAttribute): AttributeEntry {
  const result: AttributeEntry = {
    key,
    value: Array.isArray(stored.value) ? [...stored.value] : stored.value,
  };
  if (stored.blame) result.blame = stored.blame;
  if (stored.blame === 'ENRICHMENT' && stored.sources) result.sources = stored.sources.map((s) => ({ ...s }));
  return result;
}
