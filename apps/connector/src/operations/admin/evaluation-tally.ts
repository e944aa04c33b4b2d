import type { GapReason } from '../../product-sync/gaps/gap-reasons.js';
import type { MappingEvaluationDto } from './mapping-setup.dto.js';

/** Products named per reason. */
const EXAMPLES = 5;
/** Products listed in the answer. */
const LISTED = 100;

/** A reason as the evaluation counts it: a mapping gap's, or a product that would not sync. */
export type EvaluatedReason = Pick<GapReason, 'reason' | 'attribute'> & {
  code: GapReason['code'] | 'sync-failure';
};

/** What became of one product read: gone from Shopify, not synced (status or scope), or planned. */
export type EvaluationOutcome =
  | { kind: 'gone' }
  | { kind: 'out-of-scope' }
  | { kind: 'planned'; productId: string; title: string; reasons: EvaluatedReason[] };

/**
 * Why: `check-config` reports how many of the shop's products a mapping cannot (fully) enrich
 * and why, grouped by the mapping gaps' own reasons (`productGapReasons`), so what it says
 * before the first sync is what the overview and `mapping-gaps` say after it. This counts the
 * evaluated products into that answer: each reason with its products and the first few ids.
 */
export class EvaluationTally {
  read = 0;
  evaluated = 0;
  private outOfScope = 0;
  private readonly reasons = new Map<string, EvaluatedReason & { products: number; examples: string[] }>();
  private readonly products: MappingEvaluationDto['products'] = [];
  private unenrichable = 0;
  private blocked = 0;

  /** One product read, and what became of it. */
  record(outcome: EvaluationOutcome): void {
    this.read += 1;
    if (outcome.kind === 'out-of-scope') this.outOfScope += 1;
    if (outcome.kind === 'planned')
      this.add({ productId: outcome.productId, title: outcome.title }, outcome.reasons);
  }

  /** One evaluated product and its reasons (none: it maps fully). */
  private add(product: { productId: string; title: string }, reasons: readonly EvaluatedReason[]): void {
    this.evaluated += 1;
    if (reasons.length === 0) return;
    this.unenrichable += 1;
    const blocked = reasons.some((r) => r.code === 'missing-required-attribute' || r.code === 'sync-failure');
    if (blocked) this.blocked += 1;
    for (const reason of reasons) {
      const found = this.reasons.get(reason.reason) ?? {
        reason: reason.reason,
        code: reason.code,
        attribute: reason.attribute,
        products: 0,
        examples: [],
      };
      found.products += 1;
      if (found.examples.length < EXAMPLES) found.examples.push(product.productId);
      this.reasons.set(reason.reason, found);
    }
    if (this.products.length < LISTED)
      this.products.push({ ...product, blocked, reasons: reasons.map((r) => r.reason) });
  }

  answer(shop: string, source: string, more: boolean): MappingEvaluationDto {
    return {
      shop,
      source,
      read: this.read,
      outOfScope: this.outOfScope,
      evaluated: this.evaluated,
      more,
      unenrichable: this.unenrichable,
      blocked: this.blocked,
      reasons: [...this.reasons.values()].sort((a, b) => b.products - a.products),
      products: this.products,
    };
  }
}
