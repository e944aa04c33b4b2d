import type { EnrichmentStatus } from '#lib/catalog-contract';
import type { Account } from '../accounts/account.js';
import { validateAttributeValue } from '../attributes/attribute-value.validator.js';
import { ProductView } from '../products/product-view.js';
import type { StoredProduct } from '../products/stored-product.js';
import type { Enricher, EnrichmentError } from './enricher.js';
import { enrichmentTargets, leafCandidates, productFacts } from './enrichment-facts.js';

/** What enriching one record did. */
export interface ProductEnrichmentOutcome {
  status: Extract<EnrichmentStatus, 'FINISHED' | 'FAILED' | 'SKIPPED'>;
  /** Keys that received a value (blame ENRICHMENT). */
  filled: string[];
  /** The category the classification gave a record that had none. */
  classifiedCategory?: string;
  /** Proposed values refused by validation (an enricher bug), never stored. */
  dropped?: string[];
  error?: EnrichmentError;
}

/**
 * Enriches one record now. A record without a category (and not a variant: the category is the
 * parent's) is first classified to a leaf. SKIPPED when there is nothing to fill; FAILED (and
 * nothing written, classification included) when the enricher fails; otherwise FINISHED with
 * the values written with blame ENRICHMENT and their sources, and the category with blame
 * ENRICHMENT and no sources (spec: TREE_NODE values carry none).
 */
export async function enrichProduct(
  account: Account,
  product: StoredProduct,
  enricher: Enricher,
): Promise<ProductEnrichmentOutcome> {
  const view = new ProductView(account);
  let categoryId = view.categoryOf(product);
  let classifiedCategory: string | undefined;
  if (categoryId === null && product.parentSkuId === null) {
    const facts = productFacts(account, view, product, null);
    const leaf = await enricher.classify(facts, leafCandidates(account));
    if (leaf !== null && account.taxonomy.isLeaf(leaf)) {
      classifiedCategory = leaf;
      categoryId = leaf;
    }
  }
  const targets = enrichmentTargets(account, view, product, categoryId);
  if (targets.length === 0 && classifiedCategory === undefined) return { status: 'SKIPPED', filled: [] };
  const facts = productFacts(account, view, product, categoryId);
  const result = await enricher.enrich(facts, targets);
  if (result.outcome === 'failed') return { status: 'FAILED', filled: [], error: result.error };

  if (classifiedCategory !== undefined) {
    product.attributes.set('productCategory', { value: classifiedCategory, blame: 'ENRICHMENT' });
  }
  const byKey = new Map(targets.map((def) => [def.key, def]));
  const filled: string[] = [];
  const dropped: string[] = [];
  for (const proposed of result.values) {
    const def = byKey.get(proposed.key);
    if (!def || filled.includes(def.key)) continue;
    // A user may have written the attribute while the enricher worked: their value wins.
    const current = view.effective(product, def);
    if (current !== undefined && current.blame !== 'ENRICHMENT') continue;
    try {
      validateAttributeValue(def, proposed.value, account.taxonomy);
    } catch {
      dropped.push(def.key);
      continue;
    }
    const value = Array.isArray(proposed.value) ? [...proposed.value] : proposed.value;
    product.attributes.set(def.key, {
      value,
      blame: 'ENRICHMENT',
      sources: proposed.sources.map((s) => ({ ...s })),
    });
    filled.push(def.key);
  }
  const outcome: ProductEnrichmentOutcome = { status: 'FINISHED', filled };
  if (classifiedCategory !== undefined) outcome.classifiedCategory = classifiedCategory;
  if (dropped.length > 0) outcome.dropped = dropped;
  return outcome;
}
