import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogClient } from '#lib/catalog-client';
import type { ProductRecord } from '#lib/catalog-contract';
import { ManualClock } from '#lib/clock';
import { type CatalogSandboxHarness, startCatalogSandbox, type TestAccount } from '#testing/catalog-sandbox';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';
import { demoWriteBack } from '../../test/support/write-back-mapping.js';
import { planWriteBack } from './decide/plan-write-back.js';
import { type PushState, stateKey, type WriteBackSubject } from './decide/write-back-state.js';
import { pollChanged } from './poll/poll-finished.js';
import { awaitingReview, recheckWatchlist } from './poll/review-watchlist.js';
import type { AdminGraphql, GraphqlResponse } from './shopify/admin-graphql.js';
import { buildMutations } from './shopify/build-mutations.js';
import { executeWriteBack } from './shopify/execute-write-back.js';
import { fetchWriteBackState } from './shopify/fetch-write-back-state.js';

// The core of the write-back end to end, without the connector's tables and jobs: an enrichment
// run and a review in the catalog sandbox's portal, found by polling and the review watchlist,
// decided and written to the Shopify sandbox.
describe('enrichment run and review reach Shopify', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
  let catalog: CatalogSandboxHarness;
  let account: TestAccount;
  let client: CatalogClient;
  let shopify: ShopifySandboxHarness;
  const entries = demoWriteBack();
  const attributes = entries.map((e) => e.attribute);
  const search = (body: Parameters<CatalogClient['searchProducts']>[0]) => client.searchProducts(body);
  const graphql: AdminGraphql = async (query, variables) => {
    const response = await fetch(`${shopify.adminUrl}/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': shopify.accessToken },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as GraphqlResponse;
  };
  const sleep = (ms: number) => clock.advance(ms);

  beforeAll(async () => {
    catalog = await startCatalogSandbox();
    account = await catalog.createAccount();
    client = new CatalogClient({
      baseUrl: catalog.url,
      apiKey: account.apiKey,
      rate: { ratePerSecond: 1_000, burst: 100 },
      retry: { maxAttempts: 1 },
    });
    shopify = await startShopifySandbox({ clock });
  });
  afterAll(async () => {
    await client.close();
    await catalog.close();
    await shopify.close();
  });

  const portal = (path: string) => `/portal/v1/accounts/${account.id}${path}`;

  it('pushes approved values only, once, and leaves pending and rejected ones out', async () => {
    // The synced product, as the sync engine leaves it: a parent and two variants in the catalog,
    // the merchant's product in Shopify (the sku map pairs them).
    const parent = await account.api.post('/v1/products', {
      product: {
        supplierSku: 'demo:product:1',
        attributes: [
          { key: 'name', value: 'Linen shirt' },
          { key: 'brand', value: 'Acme' },
          { key: 'productModel', value: 'LS-100' },
          { key: 'productCategory', value: 'apparel-tops-shirts' },
        ],
      },
    });
    expect(parent.status, JSON.stringify(parent.body)).toBe(200);
    const variantSkus: string[] = [];
    for (const size of ['S', 'M']) {
      const created = await account.api.post('/v1/variants', {
        parentSupplierSku: 'demo:product:1',
        supplierSku: `demo:variant:${size}`,
        attributes: [{ key: 'size', value: size }],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      variantSkus.push(created.body.data.skuId);
    }
    const parentSku = parent.body.data.skuId as string;
    const merchant = await shopify.merchant('POST', 'products.json', {
      product: {
        title: 'Linen shirt',
        tags: 'linen',
        metafields_global_description_tag: 'Merchant description',
        options: [{ name: 'Size' }],
        variants: [
          { option1: 'S', price: '49.00' },
          { option1: 'M', price: '49.00' },
        ],
      },
    });
    const product = merchant.body.product as {
      admin_graphql_api_id: string;
      variants: Array<{ admin_graphql_api_id: string }>;
    };
    const productId = product.admin_graphql_api_id;
    const shopifyVariants = product.variants.map((v) => v.admin_graphql_api_id);

    // An enrichment run in the portal (manual steps: queued -> in progress -> finished).
    const run = await catalog.portal.post(portal('/enrichment/runs'), {
      skuIds: [parentSku, ...variantSkus],
      mode: 'manual',
    });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    for (const _ of [1, 2]) await catalog.portal.post(portal(`/enrichment/runs/${run.body.data.runId}/step`));

    const found = await pollChanged(search, {
      field: 'dataEnrichment.completedAt',
      checkpoint: 0,
      overlapMs: 0,
    });
    expect(found.records.map((r) => r.skuId).sort()).toEqual([parentSku, ...variantSkus].sort());
    const records = new Map(found.records.map((r) => [r.skuId, r]));
    const subjectOf = (byId: Map<string, ProductRecord>): WriteBackSubject => ({
      productId,
      record: byId.get(parentSku) ?? null,
      variants: shopifyVariants.map((variantId, i) => ({
        variantId,
        record: byId.get(variantSkus[i] as string) ?? null,
      })),
    });

    let states: PushState[] = [];
    const push = async (subject: WriteBackSubject) => {
      const state = await fetchWriteBackState(graphql, productId, entries, { sleep });
      if (!state) throw new Error('no product');
      const plan = planWriteBack({ subject, entries, states, shopify: state });
      const { outcomes } = await executeWriteBack(
        plan.writes,
        buildMutations(productId, plan.writes),
        graphql,
        { sleep },
      );
      expect(outcomes.filter((o) => !o.ok)).toEqual([]);
      const byKey = new Map(states.map((s) => [stateKey(s.ownerId, s.attribute, s.target), s]));
      for (const o of outcomes)
        byKey.set(stateKey(o.write.ref.ownerId, o.write.ref.attribute, o.write.ref.key), o.write.next);
      states = [...byKey.values()];
      return plan;
    };

    // Everything is awaiting review: nothing is pushed; every record goes on the watchlist.
    const before = await push(subjectOf(records));
    expect(before.writes).toEqual([]);
    expect(new Set(before.skipped.map((s) => s.reason))).toEqual(new Set(['pending-review']));
    const watchlist = found.records
      .filter((r) => awaitingReview(r, attributes).length > 0)
      .map((r) => r.skuId);
    expect(watchlist.sort()).toEqual([parentSku, ...variantSkus].sort());

    // The review, later, in the portal: most approved, one rejected, one variant left pending.
    const review = (skuId: string, body: object) =>
      catalog.portal.post(portal(`/products/${skuId}/review`), body);
    const parentReview = await review(parentSku, {
      approve: ['seoTitle', 'aiTags', 'aiDescription', 'material', 'careInstructions', 'aiBulletPoints'],
      reject: ['seoDescription'],
    });
    expect(parentReview.status, JSON.stringify(parentReview.body)).toBe(200);
    expect((await review(variantSkus[0] as string, { approve: ['variantTitle'] })).status).toBe(200);

    const rechecked = await recheckWatchlist(search, watchlist);
    expect(rechecked.calls).toBe(1);
    const reviewed = new Map(rechecked.records.map((r) => [r.skuId, r]));
    expect(
      rechecked.records.filter((r) => awaitingReview(r, attributes).length > 0).map((r) => r.skuId),
    ).toEqual([variantSkus[1]]);
    const mutationsBefore = (await shopify.adminRequests({ operationType: 'mutation' })).length;
    const after = await push(subjectOf(reviewed));
    expect(
      after.writes.map((w) => `${w.ref.attribute}${w.ref.ownerId === productId ? '' : '@variant'}`).sort(),
    ).toEqual([
      'aiBulletPoints',
      'aiDescription',
      'aiTags',
      'careInstructions',
      'material',
      'seoTitle',
      'variantTitle@variant',
    ]);
    const state = await fetchWriteBackState(graphql, productId, entries, { sleep });
    const parentRecord = reviewed.get(parentSku) as ProductRecord;
    const value = (key: string) => parentRecord.attributes.find((a) => a.key === key)?.value;
    expect(state?.seo).toEqual({ title: value('seoTitle'), description: 'Merchant description' });
    expect(state?.tags.sort()).toEqual(['linen', ...(value('aiTags') as string[])].sort());
    expect(state?.metafields.filter((m) => m.ownerId !== productId).map((m) => m.ownerId)).toEqual([
      shopifyVariants[0],
    ]);
    expect(state?.metafields.find((m) => m.key === 'material')?.value).toBe(value('material'));

    // Later polls and re-checks push nothing again.
    const again = await push(subjectOf(reviewed));
    expect(again.writes).toEqual([]);
    expect((await shopify.adminRequests({ operationType: 'mutation' })).length - mutationsBefore).toBe(3);
  });
});
