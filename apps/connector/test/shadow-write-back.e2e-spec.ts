import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShopPreviewDto } from '../src/operations/admin/shop-preview.dto.js';
import type { PushNowResult } from '../src/write-back/push/push-now.service.js';
import { call } from './support/admin-client.js';
import { eventually } from './support/connector-harness.js';
import {
  ADMIN_TOKEN,
  EnrichmentFixture,
  type LoggedRequest,
  type MappedProduct,
} from './support/enrichment-fixture.js';

const APPROVE = ['seoTitle', 'aiTags', 'material', 'careInstructions'];

interface PlannedRow {
  kind: string;
  method: string;
  path: string;
  body: Record<string, unknown> | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

// Issue 31, the write-back side: a shop in shadow polls and decides as in live, sends no Shopify
// mutation, and keeps each push's mutations as planned writes (source `write-back`); going live
// writes exactly those values, once, also when it switches while approvals land and deliveries
// keep arriving. `POST /admin/products/{id}/write-back` runs a push now, or with dryRun answers
// its plan and sends nothing.
describe('a shop in shadow: the write-back', () => {
  let fx: EnrichmentFixture;

  beforeAll(async () => {
    fx = await EnrichmentFixture.start();
  });
  afterAll(async () => {
    await fx?.close();
  });

  const mode = (value: string) =>
    call(fx.harness.url, 'PUT', `/admin/shops/${fx.shop.domain}/mode`, ADMIN_TOKEN, { mode: value });
  const planned = async (productId: string) =>
    (
      await fx.harness.db.query<PlannedRow>(
        `SELECT kind, method, path, body, before, after FROM "${fx.harness.schema}".planned_writes
          WHERE shop = $1 AND product_id = $2 AND source = 'write-back' ORDER BY seq`,
        [fx.shop.domain, productId],
      )
    ).rows;
  const mutations = async (): Promise<LoggedRequest[]> => {
    const answer = await fx.sandboxes.shopify.control(
      'GET',
      `shops/${fx.shop.domain}/admin-requests?operationType=mutation`,
    );
    return (answer.body.requests as LoggedRequest[]).filter((r) => r.operationName?.startsWith('WriteBack'));
  };
  const reviewed = async (title: string): Promise<MappedProduct> => {
    const product = await fx.product(title);
    await fx.enrich([product.parentSku, ...product.variantSkus]);
    await fx.review(product.parentSku, { approve: APPROVE });
    await fx.review(product.variantSkus[0] as string, { approve: ['variantTitle'] });
    return product;
  };
  const writeBack = (productId: string, query: string) =>
    call<PushNowResult>(
      fx.harness.url,
      'POST',
      `/admin/products/${productId}/write-back?shop=${fx.shop.domain}${query}`,
      ADMIN_TOKEN,
    );

  it('plans the mutations without sending them, previews them, and writes exactly those once on going live', async () => {
    const product = await reviewed('Shadow linen shirt');
    expect((await mode('shadow')).status).toBe(200);
    const before = (await mutations()).length;
    await fx.poll();

    // Zero mutations left the connector; the plan holds them, with their variables.
    expect(await mutations()).toHaveLength(before);
    const plan = await planned(product.productId);
    expect(plan.map((row) => row.path).sort()).toEqual([
      'WriteBackMetafieldsSet',
      'WriteBackProductUpdate',
      'WriteBackTagsAdd',
    ]);
    expect(plan.every((row) => row.method === 'MUTATION')).toBe(true);
    const seoTitle = await fx.value(product.parentSku, 'seoTitle');
    const material = await fx.value(product.parentSku, 'material');
    const update = plan.find((row) => row.kind === 'productUpdate');
    expect(update?.after).toMatchObject({ 'seo.title': seoTitle });
    const set = plan.find((row) => row.kind === 'metafieldsSet');
    expect(set?.after?.[Object.keys(set.after).find((k) => k.endsWith('.material')) as string]).toBe(
      material,
    );
    // No push state was stored as written: nothing pushed, no intent.
    const states = await fx.harness.db.query(
      `SELECT 1 FROM "${fx.harness.schema}".write_back_state WHERE shop = $1 AND product_id = $2`,
      [fx.shop.domain, product.productId],
    );
    expect(states.rows).toEqual([]);

    // A poll again plans again: the plan is replaced, not doubled, and still nothing is sent.
    await fx.poll();
    expect(await planned(product.productId)).toHaveLength(plan.length);
    expect(await mutations()).toHaveLength(before);

    // The preview counts the write-backs by target and shows the final values.
    const preview = await call<ShopPreviewDto>(
      fx.harness.url,
      'GET',
      `/admin/shops/${fx.shop.domain}/preview`,
      ADMIN_TOKEN,
    );
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body.counts.writeBacks.byTarget).toMatchObject({ 'seo.title': 1, tags: 1 });
    expect(preview.body.counts.writeBacks.total).toBeGreaterThanOrEqual(4);
    const record = preview.body.products
      .find((p) => p.productId === product.productId)
      ?.records.find((r) => r.source === 'shopify');
    expect(record?.finalState).toMatchObject({ 'seo.title': seoTitle });
    expect(record?.diffs).toContainEqual(expect.objectContaining({ field: 'seo.title', after: seoTitle }));

    // A dry run answers the same plan and sends nothing.
    const dry = await writeBack(product.productId, '&dryRun=true');
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body.planned.map((m) => [m.path, m.body])).toEqual(plan.map((row) => [row.path, row.body]));
    expect(await mutations()).toHaveLength(before);

    // Live: the go-live push plans again and sends exactly the planned mutations, once.
    expect((await mode('live')).status).toBe(200);
    const sent = await eventually(async () => {
      const now = await fx.writes(product);
      return now.length >= plan.length && (await planned(product.productId)).length === 0 && now;
    }, 60_000);
    expect(sent.map((r) => [r.operationName, r.variables]).sort(byJson)).toEqual(
      plan.map((row) => [row.path, row.body]).sort(byJson),
    );
    const state = await fx.shopify(product.gid);
    expect(state.seo.title).toBe(seoTitle);
    expect(state.metafields.find((m) => m.ownerId === product.gid && m.key === 'material')?.value).toBe(
      material,
    );
    const tags = plan.find((row) => row.kind === 'tagsAdd')?.after?.tags as string[];
    expect([...state.tags].sort()).toEqual([...tags].sort());
    // Polls after it write nothing more.
    await fx.poll();
    expect(await fx.writes(product)).toHaveLength(sent.length);
  });

  it('POST /admin/products/{id}/write-back: a dry run answers the plan and sends nothing; a real run writes it', async () => {
    const product = await reviewed('Route wool sweater');
    const dry = await writeBack(product.productId, '&dryRun=true');
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body).toMatchObject({ mode: 'live', dryRun: true, written: 0 });
    expect(dry.body.planned.map((m) => m.kind).sort()).toEqual(['metafieldsSet', 'productUpdate', 'tagsAdd']);
    expect(await fx.writes(product)).toEqual([]);

    const run = await writeBack(product.productId, '');
    expect(run.status, run.text).toBe(200);
    expect(run.body.written).toBeGreaterThan(0);
    expect(run.body.planned).toEqual([]);
    const writes = await fx.writes(product);
    expect(writes.map((r) => [r.operationName, r.variables]).sort(byJson)).toEqual(
      dry.body.planned.map((m) => [m.path, m.body]).sort(byJson),
    );
    expect((await fx.shopify(product.gid)).seo.title).toBe(await fx.value(product.parentSku, 'seoTitle'));

    // Errors in the app's shape.
    const noShop = await call<{ error: { code: string } }>(
      fx.harness.url,
      'POST',
      `/admin/products/${product.productId}/write-back`,
      ADMIN_TOKEN,
    );
    expect(noShop.status).toBe(400);
    expect(noShop.body.error.code).toBe('bad_request');
    const badDry = await writeBack(product.productId, '&dryRun=maybe');
    expect(badDry.status).toBe(400);
  });

  it('going live while approvals land in the catalog and deliveries keep arriving converges: each value written once, none lost', async () => {
    const products = [
      await fx.product('Switch shirt A'),
      await fx.product('Switch shirt B'),
      await fx.product('Switch shirt C'),
    ];
    const [a, b, c] = products as [MappedProduct, MappedProduct, MappedProduct];
    expect((await mode('shadow')).status).toBe(200);
    // Approvals land for A and B; the shadow poll plans their pushes.
    for (const product of [a, b]) {
      await fx.enrich([product.parentSku, ...product.variantSkus]);
      await fx.review(product.parentSku, { approve: APPROVE });
    }
    await fx.poll();
    for (const product of [a, b]) expect((await planned(product.productId)).length).toBeGreaterThan(0);
    expect((await Promise.all(products.map((p) => fx.writes(p)))).flat()).toEqual([]);

    // Merchant edits keep arriving (real deliveries, syncs) while the shop goes live and more
    // approvals land: C's content, A's variant title.
    const edits = (async () => {
      for (let round = 1; round <= 3; round++) {
        for (const product of products) {
          await fx.sandboxes.merchant(fx.shop, 'PUT', `products/${product.productId}.json`, {
            product: { id: Number(product.productId), title: `Switch shirt ${product.productId} #${round}` },
          });
        }
      }
    })();
    // C's approval lands and a poll is under way as the shop switches; A's variant title lands after.
    await fx.enrich([c.parentSku, ...c.variantSkus]);
    await fx.review(c.parentSku, { approve: APPROVE });
    const polling = call(fx.harness.url, 'POST', '/admin/enrichment/poll', ADMIN_TOKEN);
    const switched = mode('live');
    await fx.review(a.variantSkus[0] as string, { approve: ['variantTitle'] });
    expect((await switched).status).toBe(200);
    expect((await polling).status).toBe(200);
    await edits;
    for (const product of products) await fx.settle(product.productId);
    await fx.poll();

    // Converged: every approved value is in Shopify, no planned write is left, and no mutation
    // was sent twice.
    for (const product of products) {
      const state = await eventually(async () => {
        const now = await fx.shopify(product.gid);
        return now.seo.title === (await fx.value(product.parentSku, 'seoTitle')) && now;
      }, 60_000);
      expect(state.metafields.find((m) => m.ownerId === product.gid && m.key === 'material')?.value).toBe(
        await fx.value(product.parentSku, 'material'),
      );
      const aiTags = (await fx.value(product.parentSku, 'aiTags')) as string[];
      for (const tag of aiTags) expect(state.tags).toContain(tag);
      expect(await planned(product.productId)).toEqual([]);
    }
    const variantTitle = await fx.value(a.variantSkus[0] as string, 'variantTitle');
    await eventually(async () => {
      const state = await fx.shopify(a.gid);
      return state.metafields.some(
        (m) => m.ownerId === a.variantGids[0] && m.key === 'variant_title' && m.value === variantTitle,
      );
    }, 60_000);
    const sent = (await Promise.all(products.map((p) => fx.writes(p)))).flat();
    const keys = sent.map((r) => JSON.stringify([r.operationName, r.variables]));
    expect(keys.length).toBeGreaterThanOrEqual(9);
    expect(new Set(keys).size).toBe(keys.length);
    for (const product of products) {
      const updates = (await fx.writes(product)).filter((r) => r.operationName === 'WriteBackProductUpdate');
      expect(updates, product.productId).toHaveLength(1);
    }
    // A poll after it writes nothing more.
    await fx.poll();
    expect((await Promise.all(products.map((p) => fx.writes(p)))).flat()).toHaveLength(sent.length);
  });
});

function byJson(a: unknown, b: unknown): number {
  return JSON.stringify(a) < JSON.stringify(b) ? -1 : 1;
}
