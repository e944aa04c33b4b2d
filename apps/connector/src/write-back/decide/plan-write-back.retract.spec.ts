import { describe, expect, it } from 'vitest';
import { applyWrites, approved, entered, rejected } from '../../../test/support/write-back-mapping.js';
import {
  ALL_APPROVED,
  entries,
  PRODUCT,
  parent,
  Store,
  shopifyState,
  subject,
  summary,
} from '../../../test/support/write-back-plan-inputs.js';
import { planWriteBack } from './plan-write-back.js';
import { stateKey } from './write-back-state.js';

describe('planWriteBack: retraction, merchant edits, crashes', () => {
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
});
