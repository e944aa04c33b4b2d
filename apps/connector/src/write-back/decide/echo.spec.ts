import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { shopifyState } from '../../../test/support/write-back-mapping.js';
import { valueHash } from '../values/value-hash.js';
import { classifyEcho, observedFromProduct, observedFromState, observedFromWebhook } from './echo.js';
import type { PushState } from './write-back-state.js';

const PRODUCT = 'gid://shopify/Product/7390000000006';

const pushed = (target: string, valueHash: string | null, extra: Partial<PushState> = {}): PushState => ({
  ownerId: PRODUCT,
  attribute: `a:${target}`,
  target,
  status: 'pushed',
  valueHash,
  ...extra,
});

const states: PushState[] = [
  pushed('seo.title', valueHash({ kind: 'field', value: 'AI title' })),
  pushed('tags', valueHash({ kind: 'tags', tags: ['eco', 'summer'] }), { tags: ['eco', 'summer'] }),
  pushed(
    'metafield:$app:catalog.material',
    valueHash({ kind: 'metafield', type: 'single_line_text_field', value: 'Linen' }),
  ),
  pushed(
    'metafield:$app:catalog.ai_description',
    valueHash({ kind: 'metafield', type: 'rich_text_field', value: '{"type":"root","children":[]}' }),
  ),
];

const verdicts = (result: ReturnType<typeof classifyEcho>) => ({
  echoes: result.echoes.map((v) => v.state.target),
  merchantEdits: result.merchantEdits.map((v) => v.state.target),
  unseen: result.unseen.map((s) => s.target),
});

describe('classifyEcho', () => {
  it('recognises the connector’s own writes in a products/update payload, field by field', () => {
    const payload = {
      id: 7390000000006,
      admin_graphql_api_id: PRODUCT,
      title: 'Linen shirt',
      body_html: null,
      tags: 'eco, linen, summer',
      metafields: [
        {
          namespace: 'app--5717453--catalog',
          key: 'material',
          type: 'single_line_text_field',
          value: 'Linen',
        },
        {
          namespace: 'app--5717453--catalog',
          key: 'ai_description',
          type: 'rich_text_field',
          value: '{ "children": [], "type": "root" }',
        },
      ],
    };
    expect(verdicts(classifyEcho(observedFromWebhook(payload), states))).toEqual({
      echoes: ['tags', 'metafield:$app:catalog.material', 'metafield:$app:catalog.ai_description'],
      merchantEdits: [],
      // The payload has no SEO fields: the read decides those.
      unseen: ['seo.title'],
    });
  });

  it('separates an echo from a merchant edit merged into the same delivery', () => {
    const payload = {
      admin_graphql_api_id: PRODUCT,
      title: 'Renamed by the merchant',
      tags: 'eco, linen',
      metafields: [
        {
          namespace: 'app--5717453--catalog',
          key: 'material',
          type: 'single_line_text_field',
          value: 'Hemp',
        },
      ],
    };
    expect(verdicts(classifyEcho(observedFromWebhook(payload), states))).toEqual({
      echoes: [],
      // The merchant removed "summer" (an AI tag), changed the material and deleted the description.
      merchantEdits: ['tags', 'metafield:$app:catalog.material', 'metafield:$app:catalog.ai_description'],
      unseen: ['seo.title'],
    });
    const partly = { ...payload, tags: 'eco, linen, summer, sale' };
    const result = classifyEcho(
      observedFromWebhook({
        ...partly,
        metafields: [
          ...payload.metafields,
          {
            namespace: 'app--5717453--catalog',
            key: 'ai_description',
            type: 'rich_text_field',
            value: '{"type":"root","children":[]}',
          },
        ],
      }),
      states,
    );
    expect(verdicts(result)).toMatchObject({
      echoes: ['tags', 'metafield:$app:catalog.ai_description'],
      merchantEdits: ['metafield:$app:catalog.material'],
    });
  });

  it('judges every target from the connector’s read, and counts an intent not yet confirmed as an echo', () => {
    const read = shopifyState(PRODUCT, {
      seo: { title: 'AI title v2', description: null },
      tags: ['eco', 'summer'],
      metafields: [
        {
          ownerId: PRODUCT,
          namespace: 'app--1--catalog',
          key: 'material',
          type: 'single_line_text_field',
          value: 'Linen',
          compareDigest: 'x',
        },
      ],
    });
    const withIntent = states.map((s) =>
      s.target === 'seo.title'
        ? { ...s, intent: { ...s, valueHash: valueHash({ kind: 'field', value: 'AI title v2' }) } }
        : s,
    );
    expect(verdicts(classifyEcho(observedFromState(read), withIntent))).toEqual({
      echoes: ['seo.title', 'tags', 'metafield:$app:catalog.material'],
      merchantEdits: ['metafield:$app:catalog.ai_description'],
      unseen: [],
    });
  });

  it('judges SEO and tags from the sync job’s canonical read; metafields stay unseen there', () => {
    const canonical = {
      ...shopifyState(PRODUCT, {
        seo: { title: 'Merchant typed this', description: null },
        tags: ['eco', 'summer'],
      }),
      id: PRODUCT,
    };
    expect(verdicts(classifyEcho(observedFromProduct(canonical), states))).toEqual({
      echoes: ['tags'],
      merchantEdits: ['seo.title'],
      unseen: ['metafield:$app:catalog.material', 'metafield:$app:catalog.ai_description'],
    });
  });

  it('reads a real products/update payload (no write-back state: nothing to judge)', () => {
    const fixture = new URL(
      '../../../test/fixtures/shopify/products_update.anonymized-real.2025-04.json',
      import.meta.url,
    );
    const payload = JSON.parse(readFileSync(fixture, 'utf8')) as Record<string, unknown>;
    const observed = observedFromWebhook(payload);
    expect(observed.fields).toEqual({ title: 'example string', descriptionHtml: 'example string' });
    expect(observed.metafields).toBeUndefined();
    expect(classifyEcho(observed, [])).toEqual({ echoes: [], merchantEdits: [], unseen: [] });
    // Retracted and merchant-owned targets are not the connector's: no verdict.
    const notOurs = [
      pushed('seo.title', null, { status: 'retracted' }),
      pushed('tags', null, { status: 'merchant-owned' }),
    ];
    expect(classifyEcho(observed, notOurs)).toEqual({ echoes: [], merchantEdits: [], unseen: [] });
  });
});
