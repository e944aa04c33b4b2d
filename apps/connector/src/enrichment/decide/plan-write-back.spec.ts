import { describe, expect, it } from 'vitest';
import { planWriteBack } from './plan-write-back.js';
import {
  applyWrites,
  approved,
  catalogRecord,
  demoWriteBack,
  entered,
  pending,
  rejected,
  shopifyState,
  storeOutcome,
  writeBackEntry,
} from './write-back.test-support.js';
import type { WriteBackPlan } from './write-back-plan.js';
import {
  type PushState,
  type ShopifyProductState,
  stateKey,
  type WriteBackSubject,
} from './write-back-state.js';

const PRODUCT = 'gid://shopify/Product/1';
const V1 = 'gid://shopify/ProductVariant/11';
const V2 = 'gid://shopify/ProductVariant/12';

const parent = (...attributes: Parameters<typeof catalogRecord>[1]) =>
  catalogRecord('SK00000001', attributes);
const variant = (skuId: string, ...attributes: Parameters<typeof catalogRecord>[1]) =>
  catalogRecord(skuId, attributes, 'SK00000001');

function subject(
  record: WriteBackSubject['record'],
  variants: WriteBackSubject['variants'] = [],
): WriteBackSubject {
  return { productId: PRODUCT, record, variants };
}

/** A compact view of a plan: what each target gets. */
function summary(plan: WriteBackPlan) {
  const at = (ownerId: string) => (ownerId === PRODUCT ? '' : `@${ownerId.split('/').at(-1)}`);
  return {
    writes: plan.writes.map((w) => `${w.purpose} ${w.ref.attribute}${at(w.ref.ownerId)} -> ${w.ref.key}`),
    skipped: plan.skipped.map((s) => `${s.ref.attribute}${at(s.ref.ownerId)}: ${s.reason}`),
    conflicts: plan.conflicts.map((c) => `${c.ref.attribute}${at(c.ref.ownerId)}`),
    settled: plan.settled.map((s) => `${s.ref.attribute}${at(s.ref.ownerId)}: ${s.why}`),
    failures: plan.failures.map((f) => `${f.ref.attribute}: ${f.reason}`),
  };
}

const entries = demoWriteBack();

/** Runs plan after plan as the push job would: Shopify applies the writes, the states are stored. */
class Store {
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

const ALL_APPROVED = [
  approved('seoTitle', 'Acme Linen Shirt | Acme'),
  approved('seoDescription', 'A light linen shirt.\nMade to breathe.'),
  approved('aiTags', ['summer', 'eco']),
  approved('aiDescription', '<p>Acme Linen shirt.</p><ul><li>Light.</li></ul>'),
  approved('material', 'Linen'),
  approved('careInstructions', 'Wash cold.\nDry flat.'),
  approved('aiBulletPoints', '- Light\n- Breathable'),
];

describe('planWriteBack', () => {
  it('pushes approved values to their targets, variant-specific ones to each variant', () => {
    const store = new Store(
      shopifyState(PRODUCT, { tags: ['linen'], seo: { title: 'Merchant SEO', description: null } }),
    );
    const plan = store.plan(
      subject(parent(...ALL_APPROVED), [
        { variantId: V1, record: variant('SK00000002', approved('variantTitle', 'Linen shirt - S')) },
        {
          variantId: V2,
          record: variant('SK00000003', entered('variantTitle', 'Linen shirt - M (by hand)')),
        },
      ]),
    );
    expect(summary(plan)).toEqual({
      writes: [
        'push seoTitle -> seo.title',
        'push seoDescription -> seo.description',
        'push aiDescription -> metafield:$app:catalog.ai_description',
        'push material -> metafield:$app:catalog.material',
        'push careInstructions -> metafield:$app:catalog.care_instructions',
        'push aiBulletPoints -> metafield:$app:catalog.bullet_points',
        'push variantTitle@11 -> metafield:$app:catalog.variant_title',
        'push variantTitle@12 -> metafield:$app:catalog.variant_title',
        'push aiTags -> tags',
      ],
      skipped: [],
      conflicts: [],
      settled: [],
      failures: [],
    });
    expect(store.shopify.seo).toEqual({
      title: 'Acme Linen Shirt | Acme',
      description: 'A light linen shirt. Made to breathe.',
    });
    expect(store.shopify.tags).toEqual(['linen', 'summer', 'eco']);
    const values = Object.fromEntries(
      store.shopify.metafields.map((m) => [`${m.key}@${m.ownerId.split('/').at(-1)}`, m.value]),
    );
    expect(values).toEqual({
      'ai_description@1': JSON.stringify({
        type: 'root',
        children: [
          { type: 'paragraph', children: [{ type: 'text', value: 'Acme Linen shirt.' }] },
          {
            type: 'list',
            listType: 'unordered',
            children: [{ type: 'list-item', children: [{ type: 'text', value: 'Light.' }] }],
          },
        ],
      }),
      'material@1': 'Linen',
      'care_instructions@1': 'Wash cold.\nDry flat.',
      'bullet_points@1': '["Light","Breathable"]',
      'variant_title@11': 'Linen shirt - S',
      'variant_title@12': 'Linen shirt - M (by hand)',
    });
    // First pushes create metafields that must not exist yet; the SEO title remembers the merchant's.
    const material = plan.writes.find((w) => w.ref.attribute === 'material');
    expect(material?.op).toMatchObject({
      kind: 'metafield-set',
      compareDigest: null,
      type: 'single_line_text_field',
    });
    const seo = store.states.find((s) => s.target === 'seo.title');
    expect(seo?.restore).toEqual({ value: 'Merchant SEO' });
    expect(store.states.find((s) => s.target === 'tags')?.tags).toEqual(['summer', 'eco']);
  });

  it('never pushes pending or rejected values, and pushes nothing twice', () => {
    const store = new Store(shopifyState(PRODUCT));
    const record = parent(
      pending('seoTitle', 'Pending title'),
      rejected('seoDescription', 'Rejected'),
      approved('material', 'Linen'),
      entered('careInstructions', null),
    );
    expect(summary(store.plan(subject(record)))).toMatchObject({
      writes: ['push material -> metafield:$app:catalog.material'],
      skipped: [
        'seoTitle: pending-review',
        'seoDescription: nothing-to-retract',
        'aiDescription: nothing-to-retract',
        'careInstructions: nothing-to-retract',
        'aiBulletPoints: nothing-to-retract',
        'aiTags: nothing-to-retract',
      ],
    });
    expect(store.shopify.seo.title).toBeNull();
    const again = store.plan(subject(record));
    expect(again.writes).toEqual([]);
    expect(summary(again).skipped).toContain('material: unchanged');
  });

  it('pushes a replaced value with the digest it read, and retracts rejected and cleared ones', () => {
    const store = new Store(
      shopifyState(PRODUCT, { tags: ['eco', 'linen'], seo: { title: 'Merchant SEO', description: null } }),
    );
    store.plan(subject(parent(...ALL_APPROVED)));
    const before = store.shopify.metafields.find((m) => m.key === 'material');

    const replaced = store.plan(
      subject(
        parent(...ALL_APPROVED.filter((a) => a.key !== 'material'), approved('material', 'Washed linen')),
      ),
    );
    expect(summary(replaced).writes).toEqual(['push material -> metafield:$app:catalog.material']);
    expect(replaced.writes[0]?.op).toMatchObject({
      value: 'Washed linen',
      compareDigest: before?.compareDigest,
    });

    const retracted = store.plan(
      subject(
        parent(
          rejected('seoTitle', 'Acme Linen Shirt | Acme'),
          entered('seoDescription', null),
          rejected('aiTags', ['summer', 'eco']),
          rejected('aiDescription', '<p>x</p>'),
          approved('material', 'Washed linen'),
        ),
      ),
    );
    expect(summary(retracted).writes).toEqual([
      'retract seoTitle -> seo.title',
      'retract seoDescription -> seo.description',
      'retract aiDescription -> metafield:$app:catalog.ai_description',
      'retract careInstructions -> metafield:$app:catalog.care_instructions',
      'retract aiBulletPoints -> metafield:$app:catalog.bullet_points',
      'retract aiTags -> tags',
    ]);
    // The merchant's SEO title comes back; metafields are deleted; only the connector's tag goes.
    expect(store.shopify.seo).toEqual({ title: 'Merchant SEO', description: null });
    expect(store.shopify.metafields.map((m) => m.key)).toEqual(['material']);
    expect(store.shopify.tags).toEqual(['eco', 'linen']);
    expect(retracted.writes.find((w) => w.ref.key === 'tags')?.op).toEqual({
      kind: 'tags',
      add: [],
      remove: ['summer'],
    });
    expect(retracted.writes.find((w) => w.ref.attribute === 'aiDescription')?.op.kind).toBe(
      'metafield-delete',
    );
    // Nothing more to do afterwards; clearing the last value takes the last metafield back.
    expect(
      store.plan(subject(parent(rejected('seoTitle', 'x'), approved('material', 'Washed linen')))).writes,
    ).toEqual([]);
    expect(summary(store.plan(subject(parent(rejected('seoTitle', 'x'))))).writes).toEqual([
      'retract material -> metafield:$app:catalog.material',
    ]);
    expect(store.shopify.metafields).toEqual([]);
  });

  it('leaves Shopify alone for an entry removed from the mapping', () => {
    const store = new Store(shopifyState(PRODUCT));
    store.plan(subject(parent(...ALL_APPROVED)));
    const without = entries.filter((e) => e.attribute !== 'material' && e.attribute !== 'aiTags');
    const plan = store.plan(subject(parent(rejected('material', 'Linen'), rejected('aiTags', ['eco']))), {
      entries: without,
    });
    expect(plan.writes.filter((w) => w.ref.attribute === 'material' || w.ref.attribute === 'aiTags')).toEqual(
      [],
    );
    expect(store.shopify.metafields.some((m) => m.key === 'material')).toBe(true);
    expect(store.shopify.tags).toEqual(['summer', 'eco']);
  });

  it('lets a merchant edit win: a conflict, then no push over it, unless the entry or the operator says overwrite', () => {
    const store = new Store(shopifyState(PRODUCT));
    store.plan(subject(parent(...ALL_APPROVED)));
    // The merchant edits the SEO title and a metafield, and removes an AI tag.
    store.shopify.seo.title = 'My own title';
    store.shopify.tags = store.shopify.tags.filter((t) => t !== 'eco');
    const material = store.shopify.metafields.find((m) => m.key === 'material');
    if (material) Object.assign(material, { value: 'Hemp', compareDigest: 'd:Hemp' });

    const newer = parent(
      approved('seoTitle', 'Newer AI title'),
      approved('material', 'Linen blend'),
      approved('aiTags', ['summer', 'eco', 'new']),
    );
    const plan = store.plan(subject(newer), {
      entries: entries.filter((e) => ['seoTitle', 'material', 'aiTags'].includes(e.attribute)),
    });
    expect(summary(plan)).toMatchObject({ writes: [], conflicts: ['seoTitle', 'material', 'aiTags'] });
    expect(plan.conflicts.find((c) => c.ref.key === 'tags')?.detail).toContain('eco');
    expect(store.states.filter((s) => s.status === 'merchant-owned')).toHaveLength(3);

    const later = store.plan(subject(newer), {
      entries: entries.filter((e) => ['seoTitle', 'material'].includes(e.attribute)),
    });
    expect(summary(later).skipped).toEqual(['seoTitle: merchant-owned', 'material: merchant-owned']);
    expect(store.shopify.seo.title).toBe('My own title');

    const overwrite = entries.map((e) =>
      e.attribute === 'seoTitle' ? { ...e, merchantEdits: 'overwrite' as const } : e,
    );
    const override = new Set([stateKey(PRODUCT, 'material', 'metafield:$app:catalog.material')]);
    const forced = store.plan(subject(newer), {
      entries: overwrite.filter((e) => ['seoTitle', 'material'].includes(e.attribute)),
      overrides: override,
    });
    expect(summary(forced).writes).toEqual([
      'push seoTitle -> seo.title',
      'push material -> metafield:$app:catalog.material',
    ]);
    expect(store.shopify.seo.title).toBe('Newer AI title');
    // The merchant's edit is what a later retraction puts back.
    expect(store.states.find((s) => s.target === 'seo.title')?.restore).toEqual({ value: 'My own title' });
  });

  it('settles an intent that landed before a crash, and writes again one that did not', () => {
    const store = new Store(shopifyState(PRODUCT));
    const record = parent(approved('material', 'Linen'), approved('seoTitle', 'AI title'));
    const only = entries.filter((e) => e.attribute === 'material' || e.attribute === 'seoTitle');
    const first = planWriteBack({
      subject: subject(record),
      entries: only,
      states: [],
      shopify: store.shopify,
    });
    // Intents recorded for both; only the metafield write reached Shopify before the crash.
    const landed = first.writes.filter((w) => w.ref.attribute === 'material');
    store.shopify = applyWrites(store.shopify, landed);
    store.states = first.writes.map((w) => ({
      ownerId: w.ref.ownerId,
      attribute: w.ref.attribute,
      target: w.ref.key,
      status: 'retracted' as const,
      valueHash: null,
      intent: w.next,
    }));
    const after = store.plan(subject(record), { entries: only });
    expect(summary(after)).toMatchObject({
      writes: ['push seoTitle -> seo.title'],
      settled: ['material: intent-landed'],
      skipped: ['material: unchanged'],
    });
    expect(store.plan(subject(record), { entries: only }).writes).toEqual([]);
  });

  it('adopts a value Shopify already holds without writing it', () => {
    const store = new Store(shopifyState(PRODUCT, { seo: { title: 'AI title', description: null } }));
    const plan = store.plan(subject(parent(approved('seoTitle', 'AI title'))), {
      entries: entries.filter((e) => e.attribute === 'seoTitle'),
    });
    expect(summary(plan)).toMatchObject({ writes: [], settled: ['seoTitle: already-in-shopify'] });
  });

  it('records values that do not fit their target as failures, and skips records not in the catalog', () => {
    const numbers = [
      writeBackEntry('weightGrams', 'NUMBER', {
        kind: 'metafield',
        namespace: '$app',
        key: 'weight',
        type: 'number_integer',
      }),
      writeBackEntry('aiTags', 'MULTI_SELECT', { kind: 'tags' }),
    ];
    const plan = planWriteBack({
      subject: subject(parent(approved('weightGrams', '12.5'), approved('aiTags', ['a,b']))),
      entries: numbers,
      states: [],
      shopify: shopifyState(PRODUCT),
    });
    expect(summary(plan).failures).toEqual([
      'weightGrams: "12.5" is not an integer',
      'aiTags: tag "a,b" contains a comma (Shopify splits tags on commas)',
    ]);
    const missing = planWriteBack({
      subject: subject(null, [{ variantId: V1, record: null }]),
      entries,
      states: [],
      shopify: shopifyState(PRODUCT),
    });
    expect(missing.writes).toEqual([]);
    expect(new Set(missing.skipped.map((s) => s.reason))).toEqual(new Set(['not-in-catalog']));
  });

  it('shares tags between entries: a tag another entry still wants is not removed', () => {
    const two = [
      writeBackEntry('aiTags', 'MULTI_SELECT', { kind: 'tags' }),
      writeBackEntry('occasions', 'MULTI_SELECT', { kind: 'tags' }),
    ];
    const store = new Store(shopifyState(PRODUCT, { tags: ['merchant'] }));
    store.plan(subject(parent(approved('aiTags', ['eco', 'summer']), approved('occasions', ['Casual']))), {
      entries: two,
    });
    expect(store.shopify.tags).toEqual(['merchant', 'eco', 'summer', 'Casual']);
    store.plan(subject(parent(approved('aiTags', ['eco']), approved('occasions', ['Casual', 'summer']))), {
      entries: two,
    });
    expect(store.shopify.tags).toEqual(['merchant', 'eco', 'summer', 'Casual']);
    store.plan(subject(parent(rejected('aiTags', ['eco']), approved('occasions', ['Casual', 'summer']))), {
      entries: two,
    });
    expect(store.shopify.tags).toEqual(['merchant', 'summer', 'Casual']);
    store.plan(subject(parent(rejected('aiTags', ['eco']), entered('occasions', null))), { entries: two });
    expect(store.shopify.tags).toEqual(['merchant']);
  });
});
