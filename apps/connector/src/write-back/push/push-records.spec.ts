import { describe, expect, it } from 'vitest';
import type { PlannedWrite, TargetRef } from '../decide/write-back-plan.js';
import { emptyPlan } from '../decide/write-back-plan.js';
import type { PushState } from '../decide/write-back-state.js';
import { outcomeRecords, planRecords } from './push-records.js';

const PRODUCT = 'gid://shopify/Product/1';
const ref = (attribute: string, key: string): TargetRef => ({
  productId: PRODUCT,
  ownerId: PRODUCT,
  attribute,
  target: { kind: 'field', field: 'seo.title' },
  key,
  path: `writeBack.product.${attribute}`,
});
const state = (attribute: string, target: string, over: Partial<PushState> = {}): PushState => ({
  ownerId: PRODUCT,
  attribute,
  target,
  status: 'pushed',
  valueHash: `h-${attribute}`,
  ...over,
});
const write = (attribute: string, key: string): PlannedWrite => ({
  ref: ref(attribute, key),
  purpose: 'push',
  op: { kind: 'field', field: 'seo.title', value: attribute },
  next: state(attribute, key),
});

describe('what a push run stores', () => {
  it('before writing: settled and conflicting states whole, the writes as intents, a history entry each', () => {
    const plan = emptyPlan(PRODUCT);
    plan.settled.push({
      ref: ref('seoTitle', 'seo.title'),
      next: state('seoTitle', 'seo.title'),
      why: 'intent-landed',
    });
    const owned = state('material', 'metafield:$app:catalog.material', {
      status: 'merchant-owned',
      valueHash: 'm',
    });
    plan.conflicts.push({ ref: ref('material', owned.target), next: owned, detail: 'changed in Shopify' });
    plan.failures.push({ ref: ref('aiTags', 'tags'), reason: 'too many tags' });
    plan.writes.push(write('seoDescription', 'seo.description'));

    const records = planRecords(plan);
    expect(records.states).toEqual([state('seoTitle', 'seo.title'), owned]);
    expect(records.intents).toEqual([state('seoDescription', 'seo.description')]);
    expect(records.history.map((h) => [h.attribute, h.purpose, h.result, h.errors])).toEqual([
      ['seoTitle', 'settle', 'landed', ['intent-landed']],
      ['material', 'conflict', 'conflict', ['changed in Shopify']],
      ['aiTags', 'push', 'unfit', ['too many tags']],
    ]);
  });

  it('after writing: confirmed states, refused intents dropped, unknown ones kept, every outcome in the history', () => {
    const ok = write('seoTitle', 'seo.title');
    const refused = write('seoDescription', 'seo.description');
    const unknown = write('material', 'metafield:$app:catalog.material');
    const records = outcomeRecords([
      { write: ok, ok: true },
      { write: refused, ok: false, kind: 'rejected', errors: ['seo.description: too long'] },
      { write: unknown, ok: false, kind: 'unknown', errors: ['no answer'] },
    ]);
    expect(records.states).toEqual([ok.next]);
    expect(records.dropIntents).toEqual([refused.next]);
    expect(records.history.map((h) => [h.attribute, h.result, h.errors])).toEqual([
      ['seoTitle', 'ok', []],
      ['seoDescription', 'rejected', ['seo.description: too long']],
      ['material', 'unknown', ['no answer']],
    ]);
  });
});
