import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approved, entered, rejected } from '../../../test/support/write-back-mapping.js';
import { WriteBackSandbox } from '../../../test/support/write-back-sandbox.js';
import { classifyEcho, observedFromWebhook } from '../decide/echo.js';

// The planned writes against the Shopify sandbox (real 2026-07 schema, its metafield checks,
// its merge window and mutation log), through the push job's steps.
describe('write-back against the Shopify sandbox', () => {
  let s: WriteBackSandbox;
  beforeAll(async () => {
    s = await WriteBackSandbox.start();
  });
  afterAll(() => s.close());

  const ALL = [
    approved('seoTitle', 'Acme Linen Shirt | Acme'),
    approved('seoDescription', 'A light linen shirt.\nMade to breathe.'),
    approved('aiTags', ['summer', 'eco']),
    approved(
      'aiDescription',
      '<p>Acme Linen shirt.</p><ul><li>Light &amp; airy.</li><li>Breathable.</li></ul>',
    ),
    approved('material', 'Linen'),
    entered('careInstructions', 'Wash cold.\nDry flat.'),
    approved('aiBulletPoints', '- Light\n- Breathable'),
  ];

  it('writes approved values to SEO, tags and metafields, accepted by the sandbox, each once', async () => {
    const product = await s.shirt();
    const before = await s.mutationsLogged();
    const titles = ['Linen shirt - S', 'Linen shirt - M'];
    const first = await s.push([], s.subject(product, ALL, titles));
    expect(first.outcomes.filter((o) => !o.ok)).toEqual([]);
    expect(first.mutations.map((m) => m.root)).toEqual(['productUpdate', 'tagsAdd', 'metafieldsSet']);
    expect(first.plan.writes).toHaveLength(9);
    expect((await s.mutationsLogged()) - before).toBe(3);

    const state = await s.read(product.id);
    expect(state?.seo).toEqual({
      title: 'Acme Linen Shirt | Acme',
      description: 'A light linen shirt. Made to breathe.',
    });
    expect(state?.tags.sort()).toEqual(['eco', 'linen', 'summer']);
    const owner = (id: string) => (id === product.id ? '' : `@${product.variants.indexOf(id)}`);
    const metafields = Object.fromEntries(
      (state?.metafields ?? []).map((m) => [`${m.key}${owner(m.ownerId)}`, [m.type, m.value]]),
    );
    expect(metafields).toEqual({
      ai_description: [
        'rich_text_field',
        JSON.stringify({
          type: 'root',
          children: [
            { type: 'paragraph', children: [{ type: 'text', value: 'Acme Linen shirt.' }] },
            {
              type: 'list',
              listType: 'unordered',
              children: [
                { type: 'list-item', children: [{ type: 'text', value: 'Light & airy.' }] },
                { type: 'list-item', children: [{ type: 'text', value: 'Breathable.' }] },
              ],
            },
          ],
        }),
      ],
      material: ['single_line_text_field', 'Linen'],
      care_instructions: ['multi_line_text_field', 'Wash cold.\nDry flat.'],
      bullet_points: ['list.single_line_text_field', '["Light","Breathable"]'],
      'variant_title@0': ['single_line_text_field', 'Linen shirt - S'],
      'variant_title@1': ['single_line_text_field', 'Linen shirt - M'],
    });
    expect(state?.metafields.every((m) => m.namespace === s.appNamespace)).toBe(true);

    // Polled again and again: nothing is pushed twice.
    let states = first.states;
    for (let poll = 0; poll < 3; poll++) {
      const again = await s.push(states, s.subject(product, ALL, titles));
      expect(again.plan.writes).toEqual([]);
      states = again.states;
    }
    expect((await s.mutationsLogged()) - before).toBe(3);
  });

  it('tells its echo from a merchant edit merged into the same products/update', async () => {
    const product = await s.shirt();
    const first = await s.push([], s.subject(product, ALL));
    const echo = await s.updatesFor(product.id);
    // The create's update and the three writes fall in one merge window: one delivery.
    expect(echo).toHaveLength(1);
    const verdict = classifyEcho(
      observedFromWebhook(echo[0]?.payload as Record<string, unknown>),
      first.states,
    );
    expect(verdict.merchantEdits).toEqual([]);
    expect(verdict.echoes.map((v) => v.state.attribute).sort()).toEqual([
      'aiBulletPoints',
      'aiDescription',
      'aiTags',
      'careInstructions',
      'material',
    ]);
    expect(verdict.unseen.map((st) => st.attribute).sort()).toEqual(['seoDescription', 'seoTitle']);

    // Inside one window: the merchant drops an AI tag and edits the description; the connector
    // pushes a replaced material. One delivery carries both.
    const edit = await s.h.merchant('PUT', `products/${product.id.split('/').at(-1)}.json`, {
      product: { tags: 'linen, eco', body_html: '<p>Linen, washed.</p>' },
    });
    expect(edit.status).toBe(200);
    const replaced = ALL.map((a) => (a.key === 'material' ? approved('material', 'Washed linen') : a));
    const material = s.entries.filter((e) => e.attribute === 'material');
    const second = await s.push(first.states, s.subject(product, replaced), material);
    expect(second.plan.writes.map((w) => w.ref.attribute)).toEqual(['material']);
    const merged = await s.updatesFor(product.id);
    expect(merged).toHaveLength(2);
    const payload = merged[1]?.payload as Record<string, unknown>;
    expect(payload.body_html).toBe('<p>Linen, washed.</p>');
    const mixed = classifyEcho(observedFromWebhook(payload), second.states);
    expect(mixed.merchantEdits.map((v) => v.state.attribute)).toEqual(['aiTags']);
    expect(mixed.echoes.map((v) => v.state.attribute)).toContain('material');

    // The merchant now owns the tags: a later push leaves them alone and records the conflict.
    const third = await s.push(second.states, s.subject(product, replaced));
    expect(third.plan.conflicts.map((c) => c.ref.attribute)).toEqual(['aiTags']);
    expect(third.plan.writes).toEqual([]);
    expect((await s.read(product.id))?.tags.sort()).toEqual(['eco', 'linen']);
  });

  it('retracts rejected and cleared values: metafields deleted, SEO restored, only its own tags removed', async () => {
    const product = await s.createProduct({
      title: 'Wool sweater',
      tags: 'eco, wool',
      metafields_global_title_tag: 'Merchant SEO',
    });
    const first = await s.push([], s.subject(product, ALL));
    expect(first.outcomes.every((o) => o.ok)).toBe(true);
    expect((await s.read(product.id))?.tags.sort()).toEqual(['eco', 'summer', 'wool']);
    const second = await s.push(
      first.states,
      s.subject(product, [
        rejected('seoTitle', 'Acme Linen Shirt | Acme'),
        rejected('aiTags', ['summer', 'eco']),
        rejected('aiDescription', '<p>x</p>'),
        approved('material', 'Linen'),
        entered('careInstructions', null),
      ]),
    );
    expect(second.outcomes.filter((o) => !o.ok)).toEqual([]);
    expect(second.mutations.map((m) => m.root)).toEqual(['productUpdate', 'tagsRemove', 'metafieldsDelete']);
    const state = await s.read(product.id);
    expect(state?.seo).toEqual({ title: 'Merchant SEO', description: null });
    expect(state?.tags.sort()).toEqual(['eco', 'wool']);
    expect(state?.metafields.map((m) => m.key)).toEqual(['material']);
  });
});
