import { describe, expect, it } from 'vitest';
import {
  ALL_APPROVED,
  entries,
  PRODUCT,
  parent,
  shopifyState,
  subject,
} from '../../../test/support/write-back-plan-inputs.js';
import { editsInBetween } from './edits-in-between.js';
import { planWriteBack } from './plan-write-back.js';

describe('a merchant edit between the push read and its write', () => {
  it('drops the writes of the targets the merchant changed and makes them merchant-owned; the others go on', () => {
    const read = shopifyState(PRODUCT, { tags: ['linen'], seo: { title: null, description: null } });
    const plan = planWriteBack({
      subject: subject(parent(...ALL_APPROVED)),
      entries,
      states: [],
      shopify: read,
    });
    const fresh = {
      ...read,
      seo: { title: 'Typed by the merchant', description: null },
      tags: ['linen', 'sale'],
    };
    const { keep, conflicts } = editsInBetween(plan.writes, read, fresh);
    expect(conflicts.map((c) => c.ref.key)).toEqual(['seo.title']);
    expect(conflicts[0]?.next).toMatchObject({
      status: 'merchant-owned',
      intent: null,
      attribute: 'seoTitle',
    });
    // Tags are added one by one, never over the merchant's: a tag added meanwhile changes nothing.
    expect(keep.map((w) => w.ref.key)).toEqual(
      plan.writes.map((w) => w.ref.key).filter((k) => k !== 'seo.title'),
    );
    expect(editsInBetween(plan.writes, read, read)).toEqual({ keep: plan.writes, conflicts: [] });
  });
});
