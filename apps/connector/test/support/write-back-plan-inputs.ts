import { planWriteBack } from '../../src/write-back/decide/plan-write-back.js';
import type { WriteBackPlan } from '../../src/write-back/decide/write-back-plan.js';
import type {
  PushState,
  ShopifyProductState,
  WriteBackSubject,
} from '../../src/write-back/decide/write-back-state.js';
import {
  applyWrites,
  approved,
  catalogRecord,
  demoWriteBack,
  shopifyState,
  storeOutcome,
} from './write-back-mapping.js';

// Test support for the planner's specs: one product, its catalog records, and a store that runs
// plan after plan as the push job would (Shopify applies the writes, the states are stored).

export const PRODUCT = 'gid://shopify/Product/1';
export const V1 = 'gid://shopify/ProductVariant/11';
export const V2 = 'gid://shopify/ProductVariant/12';
export const entries = demoWriteBack();
export { shopifyState };

export const parent = (...attributes: Parameters<typeof catalogRecord>[1]) =>
  catalogRecord('SK00000001', attributes);
export const variant = (skuId: string, ...attributes: Parameters<typeof catalogRecord>[1]) =>
  catalogRecord(skuId, attributes, 'SK00000001');

/** The catalog side of the product. */
export function subject(
  record: WriteBackSubject['record'],
  variants: WriteBackSubject['variants'] = [],
): WriteBackSubject {
  return { productId: PRODUCT, record, variants };
}

/** A compact view of a plan: what each target gets. */
export function summary(plan: WriteBackPlan) {
  const at = (ownerId: string) => (ownerId === PRODUCT ? '' : `@${ownerId.split('/').at(-1)}`);
  return {
    writes: plan.writes.map((w) => `${w.purpose} ${w.ref.attribute}${at(w.ref.ownerId)} -> ${w.ref.key}`),
    skipped: plan.skipped.map((s) => `${s.ref.attribute}${at(s.ref.ownerId)}: ${s.reason}`),
    conflicts: plan.conflicts.map((c) => `${c.ref.attribute}${at(c.ref.ownerId)}`),
    settled: plan.settled.map((s) => `${s.ref.attribute}${at(s.ref.ownerId)}: ${s.why}`),
    failures: plan.failures.map((f) => `${f.ref.attribute}: ${f.reason}`),
  };
}

/** Runs plan after plan as the push job would: Shopify applies the writes, the states are stored. */
export class Store {
  states: PushState[] = [];
  constructor(public shopify: ShopifyProductState) {}

  plan(s: WriteBackSubject, options: { entries?: typeof entries; overrides?: Set<string> } = {}) {
    const plan = planWriteBack({
      subject: s,
      entries: options.entries ?? entries,
      states: this.states,
      shopify: this.shopify,
      ...(options.overrides ? { overrides: options.overrides } : {}),
    });
    this.shopify = applyWrites(this.shopify, plan.writes);
    this.states = storeOutcome(this.states, plan);
    return plan;
  }
}

/** Every write-back attribute of the demo mapping with an approved value. */
export const ALL_APPROVED = [
  approved('seoTitle', 'Acme Linen Shirt | Acme'),
  approved('seoDescription', 'A light linen shirt.\nMade to breathe.'),
  approved('aiTags', ['summer', 'eco']),
  approved('aiDescription', '<p>Acme Linen shirt.</p><ul><li>Light.</li></ul>'),
  approved('material', 'Linen'),
  approved('careInstructions', 'Wash cold.\nDry flat.'),
  approved('aiBulletPoints', '- Light\n- Breathable'),
];
