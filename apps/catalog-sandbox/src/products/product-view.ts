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
  constructor(private readonly account: Account) {}

  parentOf(product: StoredProduct): StoredProduct | undefined {
    return product.parentSkuId === null ? undefined : this.account.products.get(product.parentSkuId);
  }

  /** The effective entry of one attribute, or undefined when it holds no value. */
  effective(product: StoredProduct, def: AttributeDef): AttributeEntry | undefined {
    if (def.key === 'skuId') return { key: def.key, value: product.skuId };
    if (def.key === 'supplierSku') return { key: def.key, value: product.supplierSku };
    const parent = this.parentOf(product);
    const own = product.attributes.get(def.key);
    if (!parent) return own ? entry(def.key, own) : undefined;
    if (def.key === 'media' && product.ownMedia) return own ? entry(def.key, own) : undefined;
    const inheritsAlways = !def.variantable || def.key === 'media';
    if (!inheritsAlways && own) return entry(def.key, own);
    const fromParent = parent.attributes.get(def.key);
    return fromParent ? { ...entry(def.key, fromParent), inherited: true } : undefined;
  }

  /** Whether the attribute is managed by the parent on this record (read-only here). */
  isInherited(product: StoredProduct, def: AttributeDef): boolean {
    if (product.parentSkuId === null || def.system) return false;
    return !def.variantable || (def.key === 'media' && !product.ownMedia);
  }

  categoryOf(product: StoredProduct): string | null {
    const holder = this.parentOf(product) ?? product;
    const value = holder.attributes.get('productCategory')?.value;
    return typeof value === 'string' ? value : null;
  }

  attributes(product: StoredProduct): AttributeEntry[] {
    const all = this.account.behaviour.responseAttributes === 'all';
    const result: AttributeEntry[] = [];
    for (const def of this.account.attributes.all()) {
      const found = this.effective(product, def);
      if (found) result.push(found);
      else if (all)
        result.push(
          this.isInherited(product, def)
            ? { key: def.key, value: null, inherited: true }
            : { key: def.key, value: null },
        );
    }
    return result;
  }

  summary(product: StoredProduct): AttributeSummary {
    const category = this.categoryOf(product);
    const isVariant = product.parentSkuId !== null;
    let total = 0;
    let completed = 0;
    for (const def of this.account.attributes.all()) {
      if (!isEnrichable(def, category, isVariant, this.account.taxonomy)) continue;
      total += 1;
      if (this.effective(product, def)) completed += 1;
    }
    const rate = total === 0 ? 0 : Math.round((completed / total) * 10_000) / 100;
    return { enrichableTotal: total, enrichableCompleted: completed, enrichableCompletionRate: rate };
  }

  record(product: StoredProduct): ProductRecord {
    const record: ProductRecord = {
      id: product.id,
      skuId: product.skuId,
      supplierSku: product.supplierSku,
      parentSkuId: product.parentSkuId,
      createdAt: product.createdAt,
      updatedAt: product.updatedAt,
      attributeSummary: this.summary(product),
      attributes: this.attributes(product),
    };
    if (product.dataEnrichment) record.dataEnrichment = { ...product.dataEnrichment };
    return record;
  }
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
