import { describe, expect, it } from 'vitest';
import {
  approved,
  entered,
  pending,
  rejected,
  writeBackEntry,
} from '../../../test/support/write-back-mapping.js';
import {
  ALL_APPROVED,
  entries,
  PRODUCT,
  parent,
  Store,
  shopifyState,
  subject,
  summary,
  V1,
  V2,
  variant,
} from '../../../test/support/write-back-plan-inputs.js';
import { planWriteBack } from './plan-write-back.js';

describe('planWriteBack: pushing', () => {
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
