import type { KeyedProduct } from '../clients/shopify/shopify-product-pages.js';
import type { AttributeSnapshot, RecordKind } from '../product-sync/plan/index.js';
import { type CatalogIndex, type IndexedRecord, normalise } from './catalog-index.js';

/** Which Shopify variant field is compared with which catalog record field. */
export interface LinkMatch {
  shopify: 'sku' | 'barcode';
  catalog: 'supplierSku' | 'gtin';
}

/** One catalog record to enter in the map for a Shopify product or variant. */
export interface LinkedRecord {
  kind: RecordKind;
  shopifyVariantId: string | null;
  skuId: string;
  supplierSku: string;
  parentSupplierSku: string | null;
  snapshot: AttributeSnapshot;
}

/** What linking decides for one Shopify product. */
export type LinkDecision =
  | { action: 'link'; productId: string; records: LinkedRecord[] }
  | { action: 'create'; productId: string }
  | { action: 'update'; productId: string }
  | { action: 'conflict'; productId: string; reason: string };

/**
 * Decides, product by product, how a pre-filled catalog is taken over. A product the map knows
 * is updated by its sync. A simple product links the parentless record whose key equals its
 * variant's; a product with options links each variant to the variant record with its key, and
 * its own row to their common parent. No match: the sync creates it. Two candidates for a key,
 * variants under different parents, or a record another product claimed: a conflict, reported,
 * never guessed (the product is left out; a resync would create it).
 */
export class LinkMatcher {
  private readonly claimedSkuIds = new Set<string>();
  private readonly claimedSupplierSkus = new Set<string>();

  constructor(
    private readonly index: CatalogIndex,
    private readonly match: LinkMatch,
    private readonly mappedProducts: ReadonlySet<string>,
    takenSupplierSkus: ReadonlySet<string>,
  ) {
    for (const sku of takenSupplierSkus) this.claimedSupplierSkus.add(sku);
  }

  decide(product: KeyedProduct): LinkDecision {
    const productId = product.productId;
    if (this.mappedProducts.has(productId)) return { action: 'update', productId };
    const decision = product.simple ? this.simple(product) : this.withOptions(product);
    if (decision.action !== 'link') return decision;
    for (const record of decision.records) {
      if (this.claimedSkuIds.has(record.skuId) || this.claimedSupplierSkus.has(record.supplierSku)) {
        return {
          action: 'conflict',
          productId,
          reason: `record ${record.skuId} is linked to another product`,
        };
      }
    }
    for (const record of decision.records) {
      this.claimedSkuIds.add(record.skuId);
      this.claimedSupplierSkus.add(record.supplierSku);
    }
    return decision;
  }

  private simple(product: KeyedProduct): LinkDecision {
    const productId = product.productId;
    const key = this.keyOf(product.variants[0]);
    const found = this.index.candidates(key, false);
    if (found.length === 0) return { action: 'create', productId };
    if (found.length > 1) return ambiguous(productId, key, found);
    const record = found[0] as IndexedRecord;
    return {
      action: 'link',
      productId,
      records: [{ kind: 'simple', shopifyVariantId: null, ...pick(record), parentSupplierSku: null }],
    };
  }

  private withOptions(product: KeyedProduct): LinkDecision {
    const productId = product.productId;
    const matched: Array<{ variantId: string; record: IndexedRecord }> = [];
    for (const variant of product.variants) {
      const key = this.keyOf(variant);
      const found = this.index.candidates(key, true);
      if (found.length > 1) return ambiguous(productId, key, found);
      if (found[0]) matched.push({ variantId: variant.variantId, record: found[0] });
    }
    if (matched.length === 0) return { action: 'create', productId };
    const parents = [...new Set(matched.map((m) => m.record.parentSkuId as string))];
    if (parents.length > 1) {
      return {
        action: 'conflict',
        productId,
        reason: `its variants match records of ${parents.length} parents`,
      };
    }
    const parent = this.index.record(parents[0] as string);
    if (!parent) {
      return {
        action: 'conflict',
        productId,
        reason: `parent ${parents[0]} of its variants is mapped already`,
      };
    }
    return {
      action: 'link',
      productId,
      records: [
        { kind: 'parent', shopifyVariantId: null, ...pick(parent), parentSupplierSku: null },
        ...matched.map((m) => ({
          kind: 'variant' as const,
          shopifyVariantId: m.variantId,
          ...pick(m.record),
          parentSupplierSku: parent.supplierSku,
        })),
      ],
    };
  }

  private keyOf(variant: KeyedProduct['variants'][number] | undefined): string | null {
    if (!variant) return null;
    return normalise(this.match.shopify === 'sku' ? variant.sku : variant.barcode);
  }
}

function pick(record: IndexedRecord): Pick<LinkedRecord, 'skuId' | 'supplierSku' | 'snapshot'> {
  return { skuId: record.skuId, supplierSku: record.supplierSku, snapshot: record.snapshot };
}

function ambiguous(productId: string, key: string | null, found: IndexedRecord[]): LinkDecision {
  const ids = found.map((r) => r.skuId).join(', ');
  return { action: 'conflict', productId, reason: `"${key}" matches ${found.length} records (${ids})` };
}
