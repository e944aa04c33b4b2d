import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';
import type { ResolvedWriteBackEntry } from '../../mapping/index.js';
import { classifyEcho, observedFromWebhook } from '../decide/echo.js';
import { planWriteBack } from '../decide/plan-write-back.js';
import {
  approved,
  catalogRecord,
  demoWriteBack,
  entered,
  rejected,
} from '../decide/write-back.test-support.js';
import type { PlannedWrite } from '../decide/write-back-plan.js';
import { type PushState, stateKey, type WriteBackSubject } from '../decide/write-back-state.js';
import type { AdminGraphql, GraphqlResponse } from './admin-graphql.js';
import { buildMutations } from './build-mutations.js';
import { executeWriteBack } from './execute-write-back.js';
import { fetchWriteBackState } from './fetch-write-back-state.js';

type Attributes = Parameters<typeof catalogRecord>[1];

// The write-back's Admin GraphQL calls against the Shopify sandbox (real 2026-07 schema, its
// validation of metafields, its merge window and mutation log): plain fetch to the Admin URL.
describe('write-back against the Shopify sandbox', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
  let h: ShopifySandboxHarness;
  let receiver: Server;
  let appNamespace: string;
  const entries = demoWriteBack();
  const graphql: AdminGraphql = async (query, variables) => {
    const response = await fetch(`${h.adminUrl}/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': h.accessToken },
      body: JSON.stringify({ query, variables }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as GraphqlResponse;
  };
  const sleeps: number[] = [];
  const sleep = async (ms: number) => {
    sleeps.push(ms);
    await clock.advance(ms);
  };

  beforeAll(async () => {
    h = await startShopifySandbox({ clock });
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    // The app's resolved namespace (`$app:catalog` -> `app--<app id>--catalog`), for the
    // subscription's metafieldNamespaces: learnt from a first write, as Shopify answers it.
    const probe = await createProduct({ title: 'Probe' });
    const set = await graphql(
      'mutation($m: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $m) { metafields { namespace } userErrors { message } } }',
      {
        m: [
          {
            ownerId: probe.id,
            namespace: '$app:catalog',
            key: 'probe',
            type: 'single_line_text_field',
            value: 'x',
          },
        ],
      },
    );
    appNamespace = (set.data as { metafieldsSet: { metafields: Array<{ namespace: string }> } }).metafieldsSet
      .metafields[0]?.namespace as string;
    expect(appNamespace).toMatch(/^app--\d+--catalog$/);
    const subscribed = await graphql(
      `mutation($uri: String!, $ns: [String!]) { webhookSubscriptionCreate(topic: PRODUCTS_UPDATE,
        webhookSubscription: { uri: $uri, metafieldNamespaces: $ns }) { userErrors { message } } }`,
      { uri: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`, ns: [appNamespace] },
    );
    expect(subscribed.errors).toBeUndefined();
  });
  afterAll(async () => {
    await new Promise((resolve) => receiver.close(resolve));
    await h.close();
  });

  async function createProduct(body: Record<string, unknown>) {
    const created = await h.merchant('POST', 'products.json', { product: body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const product = created.body.product as {
      admin_graphql_api_id: string;
      variants: Array<{ admin_graphql_api_id: string }>;
    };
    return {
      id: product.admin_graphql_api_id,
      variants: product.variants.map((v) => v.admin_graphql_api_id),
    };
  }

  /** A merchant's shirt with two sizes, a tag and an SEO title of their own. */
  async function shirt() {
    return createProduct({
      title: 'Linen shirt',
      body_html: '<p>Linen.</p>',
      tags: 'linen',
      metafields_global_title_tag: 'Merchant SEO',
      options: [{ name: 'Size' }],
      variants: [
        { option1: 'S', sku: 'LS-S', price: '49.00' },
        { option1: 'M', sku: 'LS-M', price: '49.00' },
      ],
    });
  }

  function subject(
    product: { id: string; variants: string[] },
    attributes: Attributes,
    titles: string[] = [],
  ) {
    return {
      productId: product.id,
      record: catalogRecord('SK00000001', attributes),
      variants: product.variants.map((variantId, i) => ({
        variantId,
        record: catalogRecord(
          `SK0000001${i}`,
          titles[i] ? [approved('variantTitle', titles[i] as string)] : [],
          'SK00000001',
        ),
      })),
    } satisfies WriteBackSubject;
  }

  /** One run of the push job: read, plan, write, store what landed. */
  async function push(states: PushState[], s: WriteBackSubject, only: ResolvedWriteBackEntry[] = entries) {
    const shopify = await fetchWriteBackState(graphql, s.productId, only, { sleep });
    if (!shopify) throw new Error('product not found');
    const plan = planWriteBack({ subject: s, entries: only, states, shopify });
    const mutations = buildMutations(s.productId, plan.writes);
    const { outcomes } = await executeWriteBack(plan.writes, mutations, graphql, { sleep });
    const byKey = new Map(states.map((st) => [stateKey(st.ownerId, st.attribute, st.target), st]));
    const put = (next: PushState) => byKey.set(stateKey(next.ownerId, next.attribute, next.target), next);
    for (const { next } of [...plan.settled, ...plan.conflicts]) put(next);
    for (const outcome of outcomes) if (outcome.ok) put({ ...outcome.write.next, intent: null });
    return { plan, mutations, outcomes, states: [...byKey.values()] };
  }

  const mutationsLogged = async () =>
    (await h.adminRequests({ api: 'graphql', operationType: 'mutation' })).length;
  async function updatesFor(productId: string) {
    await h.control('POST', `shops/${h.shopDomain}/deliveries/flush`);
    const deliveries = await h.deliveries({ topic: 'products/update' });
    return deliveries.filter(
      (d) => d.payload && (d.payload as { admin_graphql_api_id?: string }).admin_graphql_api_id === productId,
    );
  }

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
    const product = await shirt();
    const before = await mutationsLogged();
    const first = await push([], subject(product, ALL, ['Linen shirt - S', 'Linen shirt - M']));
    expect(first.outcomes.filter((o) => !o.ok)).toEqual([]);
    expect(first.mutations.map((m) => m.root)).toEqual(['productUpdate', 'tagsAdd', 'metafieldsSet']);
    expect(first.plan.writes).toHaveLength(9);
    expect((await mutationsLogged()) - before).toBe(3);

    const state = await fetchWriteBackState(graphql, product.id, entries);
    expect(state?.seo).toEqual({
      title: 'Acme Linen Shirt | Acme',
      description: 'A light linen shirt. Made to breathe.',
    });
    expect(state?.tags.sort()).toEqual(['eco', 'linen', 'summer']);
    const metafields = Object.fromEntries(
      (state?.metafields ?? []).map((m) => [
        `${m.key}${m.ownerId === product.id ? '' : `@${product.variants.indexOf(m.ownerId)}`}`,
        [m.type, m.value],
      ]),
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
    expect(state?.metafields.every((m) => m.namespace === appNamespace)).toBe(true);

    // Polled again and again: nothing is pushed twice.
    let states = first.states;
    for (let poll = 0; poll < 3; poll++) {
      const again = await push(states, subject(product, ALL, ['Linen shirt - S', 'Linen shirt - M']));
      expect(again.plan.writes).toEqual([]);
      states = again.states;
    }
    expect((await mutationsLogged()) - before).toBe(3);
  });

  it('tells its echo from a merchant edit merged into the same products/update', async () => {
    const product = await shirt();
    const first = await push([], subject(product, ALL));
    const echo = await updatesFor(product.id);
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
    expect(verdict.unseen.map((s) => s.attribute).sort()).toEqual(['seoDescription', 'seoTitle']);

    // Inside one window: the merchant drops an AI tag and edits the description; the connector
    // pushes a replaced material. One delivery carries both.
    const legacyId = product.id.split('/').at(-1);
    const edit = await h.merchant('PUT', `products/${legacyId}.json`, {
      product: { tags: 'linen, eco', body_html: '<p>Linen, washed.</p>' },
    });
    expect(edit.status).toBe(200);
    const replaced = ALL.map((a) => (a.key === 'material' ? approved('material', 'Washed linen') : a));
    const second = await push(
      first.states,
      subject(product, replaced),
      entries.filter((e) => e.attribute === 'material'),
    );
    expect(second.plan.writes.map((w) => w.ref.attribute)).toEqual(['material']);
    const merged = await updatesFor(product.id);
    expect(merged).toHaveLength(2);
    const payload = merged[1]?.payload as Record<string, unknown>;
    expect(payload.body_html).toBe('<p>Linen, washed.</p>');
    const mixed = classifyEcho(observedFromWebhook(payload), second.states);
    expect(mixed.merchantEdits.map((v) => v.state.attribute)).toEqual(['aiTags']);
    expect(mixed.echoes.map((v) => v.state.attribute)).toContain('material');

    // The merchant now owns the tags: a later push leaves them alone and records the conflict.
    const third = await push(second.states, subject(product, replaced));
    expect(third.plan.conflicts.map((c) => c.ref.attribute)).toEqual(['aiTags']);
    expect(third.plan.writes).toEqual([]);
    expect((await fetchWriteBackState(graphql, product.id, entries))?.tags.sort()).toEqual(['eco', 'linen']);
  });

  it('retracts rejected and cleared values: metafields deleted, SEO restored, only its own tags removed', async () => {
    const product = await createProduct({
      title: 'Wool sweater',
      tags: 'eco, wool',
      metafields_global_title_tag: 'Merchant SEO',
    });
    const first = await push([], subject(product, ALL));
    expect(first.outcomes.every((o) => o.ok)).toBe(true);
    expect((await fetchWriteBackState(graphql, product.id, entries))?.tags.sort()).toEqual([
      'eco',
      'summer',
      'wool',
    ]);
    const second = await push(
      first.states,
      subject(product, [
        rejected('seoTitle', 'Acme Linen Shirt | Acme'),
        rejected('aiTags', ['summer', 'eco']),
        rejected('aiDescription', '<p>x</p>'),
        approved('material', 'Linen'),
        entered('careInstructions', null),
      ]),
    );
    expect(second.outcomes.filter((o) => !o.ok)).toEqual([]);
    expect(second.mutations.map((m) => m.root)).toEqual(['productUpdate', 'tagsRemove', 'metafieldsDelete']);
    const state = await fetchWriteBackState(graphql, product.id, entries);
    expect(state?.seo).toEqual({ title: 'Merchant SEO', description: null });
    expect(state?.tags.sort()).toEqual(['eco', 'wool']);
    expect(state?.metafields.map((m) => m.key)).toEqual(['material']);
  });

  it('surfaces userErrors as failures with Shopify’s messages: a stale digest, a blank title, a bad value', async () => {
    const product = await shirt();
    const first = await push(
      [],
      subject(product, [approved('material', 'Linen')]),
      entries.filter((e) => e.attribute === 'material'),
    );
    // Read, then someone else writes the metafield before the connector's write lands.
    const read = await fetchWriteBackState(graphql, product.id, entries);
    if (!read) throw new Error('no product');
    const plan = planWriteBack({
      subject: subject(product, [approved('material', 'Hemp')]),
      entries: entries.filter((e) => e.attribute === 'material'),
      states: first.states,
      shopify: read,
    });
    await graphql(
      'mutation($m: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $m) { userErrors { message } } }',
      {
        m: [{ ownerId: product.id, namespace: '$app:catalog', key: 'material', value: 'Linen blend' }],
      },
    );
    const writes: PlannedWrite[] = [
      ...plan.writes,
      { ...(plan.writes[0] as PlannedWrite), op: { kind: 'field', field: 'title', value: '' } },
      {
        ...(plan.writes[0] as PlannedWrite),
        op: {
          kind: 'metafield-set',
          ownerId: product.id,
          namespace: '$app:catalog',
          key: 'weight_grams',
          type: 'number_integer',
          value: 'twelve',
          compareDigest: null,
        },
      },
    ];
    const { outcomes } = await executeWriteBack(writes, buildMutations(product.id, writes), graphql, {
      sleep,
    });
    expect(outcomes.map((o) => (o.ok ? 'ok' : `${o.kind}: ${o.errors.join('; ')}`))).toEqual([
      expect.stringMatching(/^(stale|rejected): .*compareDigest.*(STALE_OBJECT)/),
      "rejected: title: Title can't be blank",
      expect.stringMatching(/^(stale|rejected): .*compareDigest.*(STALE_OBJECT)/),
    ]);
    // metafieldsSet is atomic: the batch with a stale digest wrote nothing.
    const after = await fetchWriteBackState(graphql, product.id, entries);
    expect(after?.metafields.map((m) => [m.key, m.value])).toEqual([['material', 'Linen blend']]);
    const alone = [writes[2] as PlannedWrite];
    const bad = await executeWriteBack(alone, buildMutations(product.id, alone), graphql, { sleep });
    expect(bad.outcomes[0]).toMatchObject({ ok: false, kind: 'rejected' });
    expect(bad.outcomes[0]?.ok === false && bad.outcomes[0].errors[0]).toMatch(
      /^metafields\.0\.value: .*integer.*\(INVALID_VALUE\)$/,
    );
  });

  it('waits out THROTTLED and paces its writes by the restore rate', async () => {
    const product = await shirt();
    await h.control('PUT', `shops/${h.shopDomain}/cost-bucket`, { currentlyAvailable: 0 });
    sleeps.length = 0;
    const result = await push([], subject(product, ALL));
    expect(result.outcomes.every((o) => o.ok)).toBe(true);
    expect(sleeps.length).toBeGreaterThan(0);
    const logged = await h.adminRequests({ api: 'graphql' });
    expect(logged.some((r) => r.outcome === 'throttled')).toBe(true);
    expect((await fetchWriteBackState(graphql, product.id, entries, { sleep }))?.seo.title).toBe(
      'Acme Linen Shirt | Acme',
    );
  });
});
