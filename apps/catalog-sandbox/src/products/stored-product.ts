import type { AttributeSource, Blame, DataEnrichment } from '#lib/catalog-contract';

/** A value held on a record; never null (clearing removes the entry). */
export interface StoredAttribute {
  value: string | string[];
  blame?: Blame;
  sources?: AttributeSource[];
}

/**
 * A product or variant as the sandbox keeps it. `attributes` holds only the record's own
 * values; inherited values are resolved from the parent when the record is read.
 */
export interface StoredProduct {
  id: string;
  skuId: string;
  supplierSku: string;
  parentSkuId: string | null;
  createdAt: number;
  updatedAt: number;
  /** Insertion sequence: the tie break of every sort. */
  seq: number;
  attributes: Map<string, StoredAttribute>;
  dataEnrichment?: DataEnrichment;
  /** Variants only: true once the variant was given its own `media` (inheritance broken). */
  ownMedia: boolean;
  /** Parents only: skuIds of the record's variants, in creation order. */
  variantSkuIds: string[];
}
