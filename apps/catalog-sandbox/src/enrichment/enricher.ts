import type { AttributeSource, AttributeValue } from '#lib/catalog-contract';
import type { AttributeDef } from '../attributes/attribute-definition.js';

/** What an enricher knows of a record: its effective values (a variant's include the parent's). */
export interface ProductFacts {
  skuId: string;
  supplierSku: string;
  isVariant: boolean;
  name: string | null;
  brand: string | null;
  productModel: string | null;
  /** The description as plain text (tags removed). */
  description: string | null;
  category: CategoryFacts | null;
  mediaCount: number;
  /** The record's own variant-specific values (size, colour...), by key. */
  variantValues: Record<string, AttributeValue>;
}

/** A taxonomy node with its ancestors' names, root first. */
export interface CategoryFacts {
  id: string;
  name: string;
  description: string;
  path: string[];
}

export interface EnrichedValue {
  key: string;
  value: string | string[];
  sources: AttributeSource[];
}

/** The spec's `enrichment_failed` error (its only example: a productModel not found). */
export interface EnrichmentError {
  code: 'enrichment_failed';
  message: string;
  details: { productModel: string | null; suggestion: string };
}

export type EnrichmentResult =
  | { outcome: 'enriched'; values: EnrichedValue[] }
  | { outcome: 'failed'; error: EnrichmentError };

/**
 * The content generator behind enrichment runs. The runner decides which attributes to fill
 * (applicable, enrichable, no user value, not reviewed) and writes the results; an enricher
 * only proposes values. The sandbox ships a deterministic one; an LLM-backed one can be bound to
 * the ENRICHER token instead. Values that fail the attribute's validation are dropped by the
 * runner, so an enricher cannot store an invalid value.
 */
export interface Enricher {
  /** The leaf category for a record without one (the spec's classification service), or null. */
  classify(product: ProductFacts, leaves: CategoryFacts[]): Promise<string | null>;
  /** Values for `targets`; returning fewer (or none) is allowed. */
  enrich(product: ProductFacts, targets: AttributeDef[]): Promise<EnrichmentResult>;
}

/** Injection token of the Enricher. */
export const ENRICHER = Symbol('CATALOG_SANDBOX_ENRICHER');
