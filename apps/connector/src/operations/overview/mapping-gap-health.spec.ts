import { describe, expect, it } from 'vitest';
import { type MappingGapFacts, mappingGapReason, percent } from './mapping-gap-health.js';
import { shopHealth } from './shop-health.js';

const CATEGORY = 'category "Accessories" is not a category of the account';
const facts = (over: Partial<MappingGapFacts> = {}): MappingGapFacts => ({
  products: 0,
  knownProducts: 40,
  degradedShare: 0.1,
  topReason: null,
  reasonCount: 0,
  ...over,
});

describe('mappingGapReason', () => {
  it('says nothing without gaps, or at or below the share', () => {
    expect(mappingGapReason(facts())).toBeNull();
    expect(mappingGapReason(facts({ products: 4, topReason: { reason: CATEGORY, products: 4 } }))).toBeNull();
  });

  it('counts them above the share, with the commonest reason in words', () => {
    expect(
      mappingGapReason(
        facts({ products: 12, topReason: { reason: CATEGORY, products: 12 }, reasonCount: 1 }),
      ),
    ).toBe(`12 of 40 products cannot be fully enriched (30 %, more than 10 %): 12 products: ${CATEGORY}`);
    expect(
      mappingGapReason(facts({ products: 5, topReason: { reason: CATEGORY, products: 3 }, reasonCount: 3 })),
    ).toBe(
      `5 of 40 products cannot be fully enriched (13 %, more than 10 %): 3 products: ${CATEGORY} (and 2 other reasons)`,
    );
  });

  it('never counts fewer known products than gaps (a product whose create was refused is known only here)', () => {
    expect(
      mappingGapReason(
        facts({
          products: 1,
          knownProducts: 0,
          topReason: { reason: CATEGORY, products: 1 },
          reasonCount: 1,
        }),
      ),
    ).toBe(`1 of 1 products cannot be fully enriched (100 %, more than 10 %): 1 product: ${CATEGORY}`);
  });

  it('degrades on any gap at a share of 0, and never at 1', () => {
    const one = {
      products: 1,
      knownProducts: 1000,
      topReason: { reason: CATEGORY, products: 1 },
      reasonCount: 1,
    };
    expect(mappingGapReason(facts({ ...one, degradedShare: 0 }))).toMatch(/^1 of 1000 products .*\(0\.1 %/);
    expect(mappingGapReason(facts({ ...one, products: 1000, degradedShare: 1 }))).toBeNull();
    expect(percent(0.004)).toBe('0.4 %');
  });
});

describe('shopHealth with mapping gaps', () => {
  const fine = {
    authState: 'active',
    authReason: null,
    operatorPause: null,
    mappingProblem: null,
    catalogKeyProblem: null,
    backlog: 0,
    backlogAgeSeconds: null,
    backlogFailingSeconds: 300,
    breaker: 'closed',
    pollLagSeconds: null,
    pollIntervalSeconds: 60,
    openFailures: {},
    heldByFailures: 0,
    catalog: null,
    openFailureCodes: {},
    platform: { queueProblem: null, queueStateLostSecondsAgo: null },
  };

  it('is degraded above the share, healthy once the gaps are fixed', () => {
    const gapped = facts({
      products: 1,
      knownProducts: 2,
      topReason: { reason: CATEGORY, products: 1 },
      reasonCount: 1,
    });
    const reason = `1 of 2 products cannot be fully enriched (50 %, more than 10 %): 1 product: ${CATEGORY}`;
    expect(shopHealth({ ...fine, mappingGaps: gapped })).toEqual({
      state: 'degraded',
      reasons: [reason],
      causes: [{ code: 'mapping_gaps', severity: 'degraded', text: reason }],
    });
    expect(shopHealth({ ...fine, mappingGaps: facts({ knownProducts: 2 }) }).state).toBe('healthy');
  });
});
