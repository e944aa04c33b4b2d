import type { MappingGap, PlanFailure, PlanNote } from '../plan/index.js';

/** What kind of evidence a reason comes from: a value left out, a note of the plan, a refused create. */
export type GapReasonCode =
  | 'unknown-value'
  | 'invalid-value'
  | 'enrichment-will-fail'
  | 'missing-required-attribute';

/**
 * One reason a product cannot be (fully) enriched, in words. `reason` names no product (only the
 * mapping entry, the attribute and the Shopify value), so products with the same cause share it:
 * it is the key the overview and the list group by.
 */
export interface GapReason {
  reason: string;
  code: GapReasonCode;
  /** The catalog attribute it concerns. */
  attribute: string | null;
  /** How many of the product's catalog records it touches (0: the catalog has no record of it). */
  records: number;
}

/** What a plan says about the product, as far as its mapping gaps go. */
export interface GapEvidence {
  gaps: readonly MappingGap[];
  notes: readonly PlanNote[];
  failure: PlanFailure | null;
}

/**
 * Why: the sync's plan already knows, per record, which attributes it left out (a Shopify value
 * with no catalog equivalent), that the catalog's enrichment will fail (no brand or productModel),
 * or that the product cannot be created (a required attribute missing). This turns that evidence
 * into the product's reasons, one per cause (the records of a product with the same cause are
 * counted, not repeated): a create the plan refused first, then the values left out, then the
 * enrichment notes.
 */
export function productGapReasons(evidence: GapEvidence): GapReason[] {
  const reasons = new Map<string, GapReason & { refs: Set<string> }>();
  const add = (reason: string, code: GapReasonCode, attribute: string | null, ref: string | null) => {
    const found = reasons.get(reason) ?? { reason, code, attribute, records: 0, refs: new Set<string>() };
    if (ref !== null) found.refs.add(ref);
    found.records = found.refs.size;
    reasons.set(reason, found);
  };
  const failure = evidence.failure;
  if (failure?.code === 'missing-required-attribute') {
    add(failure.message, failure.code, failure.attribute ?? null, null);
  }
  for (const gap of evidence.gaps) {
    add(gap.message, gap.reason, gap.attribute, `${gap.record.kind}:${gap.record.shopifyVariantId ?? ''}`);
  }
  for (const note of evidence.notes) {
    if (note.code === 'enrichment-will-fail') add(note.message, note.code, note.attribute ?? null, 'own');
  }
  return [...reasons.values()].map(({ refs: _refs, ...reason }) => reason);
}

/** Whether the catalog holds no record of the product because of its gaps (its create was refused). */
export function blockedBy(reasons: readonly GapReason[]): boolean {
  return reasons.some((reason) => reason.code === 'missing-required-attribute');
}

/** A sync record's detail about the plan's gaps, in words (null: none), at most three reasons named. */
export function gapSummary(gaps: readonly MappingGap[]): string | null {
  if (gaps.length === 0) return null;
  const messages = [...new Set(gaps.map((gap) => gap.message))];
  const named = messages.slice(0, 3).join('; ');
  const more = messages.length > 3 ? `; and ${messages.length - 3} more` : '';
  return `${gaps.length} mapping gap${gaps.length === 1 ? '' : 's'}: ${named}${more}`;
}
