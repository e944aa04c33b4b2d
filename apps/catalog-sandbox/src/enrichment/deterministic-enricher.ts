import type { AttributeDef } from '../attributes/attribute-definition.js';
import { deterministicValue, type ModelQuality } from './deterministic-values.js';
import type { CategoryFacts, EnrichedValue, Enricher, EnrichmentResult, ProductFacts } from './enricher.js';

const INTERNAL_MODEL = /^(INT|SKU|TMP)[-_]/i;
const STOP_WORDS = new Set(['and', 'the', 'for', 'with', 'without', 'excludes', 'from', 'all', 'other']);

/**
 * The sandbox's enricher: same facts, same values. Text comes from the name, brand, model and
 * category; choices from `option.values`; numbers, prices and dates from a hash of the facts.
 *
 * productModel (spec: "essential", "internal codes give poor enrichment"):
 * - missing: the product FAILS with `enrichment_failed` (details.productModel null);
 * - internal-looking (equal to the supplierSku, or starting INT-, SKU- or TMP-): poorer results,
 *   only text built from the record's own data (sources YOUR_DATA), no other type;
 * - otherwise: every target gets a value.
 */
export class DeterministicEnricher implements Enricher {
  async classify(product: ProductFacts, leaves: CategoryFacts[]): Promise<string | null> {
    const words = tokens(`${product.name ?? ''} ${product.description ?? ''}`);
    let best: CategoryFacts | null = null;
    let bestScore = 0;
    for (const leaf of leaves) {
      const score =
        2 * overlap(words, tokens(leaf.name)) +
        overlap(words, tokens(`${leaf.description} ${leaf.path.join(' ')}`));
      if (best === null || score > bestScore) {
        best = leaf;
        bestScore = score;
      }
    }
    return best?.id ?? null;
  }

  async enrich(product: ProductFacts, targets: AttributeDef[]): Promise<EnrichmentResult> {
    const quality = modelQuality(product);
    if (quality === null) {
      return {
        outcome: 'failed',
        error: {
          code: 'enrichment_failed',
          message: 'The product has no productModel, so it could not be found in external sources.',
          details: {
            productModel: product.productModel,
            suggestion:
              'Set productModel to a manufacturer model number (or GTIN/UPC, or manufacturer part number), then run enrichment again.',
          },
        },
      };
    }
    const values: EnrichedValue[] = [];
    for (const def of targets) {
      const proposed = deterministicValue(def, product, quality);
      if (proposed) values.push({ key: def.key, ...proposed });
    }
    return { outcome: 'enriched', values };
  }
}

/** null when the model is missing. */
export function modelQuality(product: ProductFacts): ModelQuality | null {
  const model = product.productModel?.trim() ?? '';
  if (model === '') return null;
  const internal =
    model.toLowerCase() === product.supplierSku.trim().toLowerCase() || INTERNAL_MODEL.test(model);
  return internal ? 'internal' : 'good';
}

function tokens(text: string): Set<string> {
  const result = new Set<string>();
  for (const raw of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (raw.length < 3 || STOP_WORDS.has(raw)) continue;
    result.add(raw.length > 3 && raw.endsWith('s') ? raw.slice(0, -1) : raw);
  }
  return result;
}

function overlap(a: Set<string>, b: Set<string>): number {
  let count = 0;
  for (const word of b) if (a.has(word)) count += 1;
  return count;
}
