import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/admin-client.js';
import { eventually } from './support/connector-harness.js';
import {
  ADMIN_TOKEN,
  EnrichmentFixture,
  type LoggedRequest,
  type MappedProduct,
} from './support/enrichment-fixture.js';

const PARENT_KEYS = ['seoTitle', 'aiTags', 'aiDescription', 'material', 'careInstructions', 'aiBulletPoints'];

// The write-back end to end: records enriched and reviewed in the catalog sandbox's portal,
// found by `POST /admin/enrichment/poll`, pushed to the Shopify sandbox by the push jobs.
describe('enrichment write-back', () => {
  let fx: EnrichmentFixture;

  beforeAll(async () => {
    fx = await EnrichmentFixture.start();
  });
  afterAll(async () => {
    await fx?.close();
  });

  const enriched = async (title: string): Promise<MappedProduct> => {
    const product = await fx.product(title);
    await fx.enrich([product.parentSku, ...product.variantSkus]);
    return product;
  };
  const metafield = (state: Awaited<ReturnType<EnrichmentFixture['shopify']>>, owner: string, key: string) =>
    state.metafields.find((m) => m.ownerId === owner && m.key === key)?.value;
  const history = async (product: MappedProduct) => {
    const { rows } = await fx.harness.db.query<{ attribute: string; purpose: string; result: string }>(
      `SELECT attribute, purpose, result FROM "${fx.harness.schema}".write_back_push
        WHERE shop = $1 AND product_id = $2 ORDER BY id`,
      [fx.shop.domain, product.productId],
    );
    return rows;
  };

  it('pushes approved values to product fields, tags and metafields, never pending or rejected ones, once', async () => {
    const product = await enriched('Linen shirt');
    // A record somebody else created in the catalog: ignored and counted.
    const stranger = await fx.account.api.post('/v1/products', {
      product: {
        supplierSku: `stranger-${product.productId}`,
        attributes: [
          { key: 'name', value: 'Not from Shopify' },
          { key: 'brand', value: 'Acme' },
          { key: 'productModel', value: 'ST-1' },
        ],
      },
    });
    await fx.enrich([stranger.body.data.skuId]);

    // Everything awaits review: nothing is written, the records are watched.
    const before = await fx.poll();
    expect(before.counts).toMatchObject({ watched: 3 });
    expect((before.counts as { unmapped: number }).unmapped).toBeGreaterThanOrEqual(1);
    expect(await fx.writes(product)).toEqual([]);

    // The review comes later and changes neither completedAt nor updatedAt: the watchlist finds it.
    await fx.review(product.parentSku, { approve: PARENT_KEYS, reject: ['seoDescription'] });
    await fx.review(product.variantSkus[0] as string, { approve: ['variantTitle'] });
    const runsBefore = (await fx.syncRuns(product.productId)).length;
    await fx.poll();

    const state = await fx.shopify(product.gid);
    expect(state.seo).toEqual({
      title: await fx.value(product.parentSku, 'seoTitle'),
      description: 'Merchant description',
    });
    const aiTags = (await fx.value(product.parentSku, 'aiTags')) as string[];
    expect(state.tags.sort()).toEqual(['linen', ...aiTags].sort());
    expect(metafield(state, product.gid, 'material')).toBe(await fx.value(product.parentSku, 'material'));
    expect(metafield(state, product.gid, 'care_instructions')).toBe(
      await fx.value(product.parentSku, 'careInstructions'),
    );
    expect(metafield(state, product.gid, 'ai_description')).toContain('"type":"root"');
    expect(JSON.parse(metafield(state, product.gid, 'bullet_points') ?? '[]').length).toBeGreaterThan(0);
    expect(metafield(state, product.variantGids[0] as string, 'variant_title')).toBe(
      await fx.value(product.variantSkus[0] as string, 'variantTitle'),
    );
    // The second variant's value still awaits review.
    expect(metafield(state, product.variantGids[1] as string, 'variant_title')).toBeUndefined();

    const writes = await fx.writes(product);
    expect(writes.map((w) => w.operationName).sort()).toEqual([
      'WriteBackMetafieldsSet',
      'WriteBackProductUpdate',
      'WriteBackTagsAdd',
    ]);
    for (const _ of [1, 2, 3]) await fx.poll();
    expect(await fx.writes(product)).toHaveLength(writes.length);

    // The products/update our writes caused (merge window on) is synced with zero catalog calls.
    await fx.settle(product.productId);
    const echoes = await eventually(async () => {
      const runs = (await fx.syncRuns(product.productId)).slice(runsBefore);
      return runs.length > 0 && runs;
    });
    expect(echoes.map((r) => [r.outcome, r.calls])).toEqual(echoes.map(() => ['synced', []]));
  });

  it('finds a completedAt that became visible after the checkpoint passed it (overlap window)', async () => {
    const early = await fx.product('Late shirt');
    const first = await enriched('Early shirt');
    await fx.review(first.parentSku, { approve: ['seoTitle'] });
    await fx.poll();
    // The checkpoint is past the first record's completedAt; the late one shows an older one.
    await fx.enrich([early.parentSku, ...early.variantSkus], { at: Date.now() - 60_000 });
    await fx.review(early.parentSku, { approve: ['seoTitle'] });
    await fx.poll();
    expect((await fx.shopify(early.gid)).seo.title).toBe(await fx.value(early.parentSku, 'seoTitle'));
    expect(await fx.writes(early)).toHaveLength(1);
  });

  it("sends a simple product's variant-specific values to its one variant", async () => {
    const [product] = (await fx.simpleProducts(1)) as [MappedProduct];
    await fx.enrich([product.parentSku]);
    expect(await fx.value(product.parentSku, 'variantTitle')).toBeTruthy();
    await fx.review(product.parentSku, { approve: ['variantTitle', 'material'] });
    await fx.poll();
    const state = await fx.shopify(product.gid);
    const variant = state.metafields.find((m) => m.key === 'variant_title');
    expect(variant?.ownerId).toMatch(/^gid:\/\/shopify\/ProductVariant\//);
    expect(variant?.value).toBe(await fx.value(product.parentSku, 'variantTitle'));
    expect(metafield(state, product.gid, 'material')).toBe(await fx.value(product.parentSku, 'material'));
    // Its variant is found in the push's own read of the variants (one for the plan, one right
    // before the write), not in a read of its own first.
    const log = await fx.sandboxes.shopify.control('GET', `shops/${fx.shop.domain}/admin-requests`);
    const calls = (log.body.requests as LoggedRequest[])
      .filter(
        (r) => r.operationName?.startsWith('WriteBack') && JSON.stringify(r.variables).includes(product.gid),
      )
      .map((r) => r.operationName);
    expect(calls.slice(0, calls.indexOf('WriteBackMetafieldsSet') + 1)).toEqual([
      'WriteBackProduct',
      'WriteBackVariants',
      'WriteBackProduct',
      'WriteBackVariants',
      'WriteBackMetafieldsSet',
    ]);
  });

  it('reads the variants once when a push writes to none of them', async () => {
    const product = await enriched('Flannel shirt');
    // The variants' own values still await review: only product-level targets are written.
    await fx.review(product.parentSku, { approve: ['seoTitle'] });
    await fx.poll();
    const log = await fx.sandboxes.shopify.control('GET', `shops/${fx.shop.domain}/admin-requests`);
    const calls = (log.body.requests as LoggedRequest[])
      .filter(
        (r) => r.operationName?.startsWith('WriteBack') && JSON.stringify(r.variables).includes(product.gid),
      )
      .map((r) => r.operationName);
    // The plan's read takes the variants (variant entries exist); the read right before the write
    // takes the product alone (no write goes to a variant, so no variant's edit can be in between).
    expect(calls.slice(0, calls.indexOf('WriteBackProductUpdate') + 1)).toEqual([
      'WriteBackProduct',
      'WriteBackVariants',
      'WriteBackProduct',
      'WriteBackProductUpdate',
    ]);
    expect((await fx.shopify(product.gid)).seo.title).toBe(await fx.value(product.parentSku, 'seoTitle'));
  });

  it('takes a value back when it is rejected after approval, leaving the merchant tags alone', async () => {
    const product = await enriched('Wool sweater');
    await fx.review(product.parentSku, { approve: ['seoTitle', 'seoDescription', 'aiTags'] });
    await fx.poll();
    const pushed = await fx.shopify(product.gid);
    // LONG_TEXT in a one-line field: its lines joined.
    const description = String(await fx.value(product.parentSku, 'seoDescription'));
    expect(pushed.seo.description).toBe(description.replace(/\s*\n\s*/g, ' '));
    expect(pushed.tags.length).toBeGreaterThan(1);

    await fx.review(product.parentSku, { reject: ['seoDescription', 'aiTags'] });
    await fx.poll();
    const retracted = await fx.shopify(product.gid);
    expect(retracted.tags).toEqual(['linen']);
    expect(retracted.seo).toEqual({
      title: await fx.value(product.parentSku, 'seoTitle'),
      description: 'Merchant description',
    });
    const results = await history(product);
    expect(results.filter((h) => h.purpose === 'retract').map((h) => [h.attribute, h.result])).toEqual([
      ['seoDescription', 'ok'],
      ['aiTags', 'ok'],
    ]);
  });

  it("leaves a merchant's edit after a push alone and records the conflict", async () => {
    const product = await enriched('Cotton tee');
    await fx.review(product.parentSku, { approve: ['seoTitle'] });
    await fx.poll();
    expect((await fx.shopify(product.gid)).seo.title).toBe(await fx.value(product.parentSku, 'seoTitle'));

    const edit = await fx.sandboxes.merchant(fx.shop, 'PUT', `products/${product.productId}.json`, {
      product: { id: Number(product.productId), metafields_global_title_tag: 'The merchant title' },
    });
    expect(edit.status).toBe(200);
    // The products/update reaches the sync; the after-sync listener sees the edit.
    await fx.settle(product.productId);
    await eventually(async () =>
      (await history(product)).some((h) => h.attribute === 'seoTitle' && h.result === 'conflict'),
    );

    // A person then corrects the value in the portal: it is not pushed over the merchant's edit.
    const writes = (await fx.writes(product)).length;
    await fx.edit(product.parentSku, [{ key: 'seoTitle', value: 'A corrected title' }]);
    await fx.poll();
    expect((await fx.shopify(product.gid)).seo.title).toBe('The merchant title');
    expect(await fx.writes(product)).toHaveLength(writes);

    // Unless the operator says so: one push over the merchant's edit.
    const refused = await call(
      fx.harness.url,
      'POST',
      `/admin/enrichment/overwrite?shop=${fx.shop.domain}&productId=${product.productId}&attribute=name`,
      ADMIN_TOKEN,
    );
    expect(refused.status).toBe(400);
    const overwrite = await call(
      fx.harness.url,
      'POST',
      `/admin/enrichment/overwrite?shop=${fx.shop.domain}&productId=${product.productId}&attribute=seoTitle`,
      ADMIN_TOKEN,
    );
    expect(overwrite.status).toBe(200);
    expect(overwrite.body).toMatchObject({ attributes: ['seoTitle'], status: 'queued' });
    await eventually(async () => (await fx.shopify(product.gid)).seo.title === 'A corrected title');
    expect(await fx.writes(product)).toHaveLength(writes + 1);
  });

  it('writes once when a run stops after recording its intent', async () => {
    const hooks = fx.pushSeams;
    let runs = 0;
    hooks.afterIntent = async () => {
      runs += 1;
      if (runs === 1) throw new Error('the process stopped after recording its intent');
    };
    try {
      const product = await enriched('Denim jacket');
      await fx.review(product.parentSku, { approve: ['seoTitle', 'material'] });
      await fx.poll();
      expect(runs).toBe(2);
      const state = await fx.shopify(product.gid);
      expect(state.seo.title).toBe(await fx.value(product.parentSku, 'seoTitle'));
      expect(metafield(state, product.gid, 'material')).toBe(await fx.value(product.parentSku, 'material'));
      expect((await fx.writes(product)).map((w) => w.operationName).sort()).toEqual([
        'WriteBackMetafieldsSet',
        'WriteBackProductUpdate',
      ]);
      expect((await history(product)).map((h) => h.result)).toEqual(['ok', 'ok']);
    } finally {
      hooks.afterIntent = async () => {};
    }
  });

  it('settles a write that landed before the run stopped, without writing it again', async () => {
    const hooks = fx.pushSeams;
    let runs = 0;
    hooks.afterWrite = async () => {
      runs += 1;
      if (runs === 1) throw new Error('the process stopped before recording the outcome');
    };
    try {
      const product = await enriched('Chino shorts');
      await fx.review(product.parentSku, { approve: ['seoTitle', 'aiTags', 'material'] });
      await fx.poll();
      expect(runs).toBe(1);
      expect((await fx.writes(product)).map((w) => w.operationName).sort()).toEqual([
        'WriteBackMetafieldsSet',
        'WriteBackProductUpdate',
        'WriteBackTagsAdd',
      ]);
      expect((await history(product)).map((h) => [h.purpose, h.result])).toEqual([
        ['settle', 'landed'],
        ['settle', 'landed'],
        ['settle', 'landed'],
      ]);
      const state = await fx.shopify(product.gid);
      expect(state.seo.title).toBe(await fx.value(product.parentSku, 'seoTitle'));
    } finally {
      hooks.afterWrite = async () => {};
    }
  });

  it('waits out THROTTLED and then writes', async () => {
    const product = await enriched('Rain boots');
    await fx.review(product.parentSku, { approve: ['seoTitle'] });
    // The shop's query-cost bucket is emptied after the connector planned: its read right before
    // the write is throttled first.
    const hooks = fx.pushSeams;
    hooks.afterIntent = async () => {
      const drained = await fx.sandboxes.shopify.control('PUT', `shops/${fx.shop.domain}/cost-bucket`, {
        currentlyAvailable: 0,
      });
      expect(drained.status).toBe(200);
    };
    try {
      await fx.poll();
    } finally {
      hooks.afterIntent = async () => {};
    }
    expect((await fx.shopify(product.gid)).seo.title).toBe(await fx.value(product.parentSku, 'seoTitle'));
    const writes = await fx.writes(product);
    expect(writes.map((w) => [w.operationName, w.outcome])).toEqual([['WriteBackProductUpdate', 'ok']]);
    const log = await fx.sandboxes.shopify.control('GET', `shops/${fx.shop.domain}/admin-requests`);
    const reads = (log.body.requests as LoggedRequest[]).filter(
      (r) => r.operationName === 'WriteBackProduct' && JSON.stringify(r.variables).includes(product.gid),
    );
    expect(reads.map((r) => r.outcome)).toContain('throttled');
    expect(reads.at(-1)?.outcome).toBe('ok');
  });
});
