import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';

const QUERY = '{ products(first: 10) { nodes { id title } } }';

describe('query cost and throttling', () => {
  let h: ShopifySandboxHarness;
  afterEach(() => h.close());

  it('reports the cost and throttle status in every response', async () => {
    h = await startShopifySandbox();
    const reply = await h.graphql(QUERY);
    expect(reply.extensions.cost).toEqual({
      requestedQueryCost: 12,
      actualQueryCost: 2,
      throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 1998, restoreRate: 100 },
    });
  });

  it('answers THROTTLED in the body when the bucket lacks the requested cost, then restores', async () => {
    const clock = new ManualClock();
    h = await startShopifySandbox({ clock, cost: { bucketSize: 30, restoreRate: 5 } });
    await h.merchant('POST', 'products.json', { product: { title: 'One' } });
    await h.merchant('POST', 'products.json', { product: { title: 'Two' } });
    const expensive = '{ products(first: 10) { nodes { id } } }';
    const first = await h.graphql(expensive);
    expect(first.errors).toBeUndefined();
    expect(first.extensions.cost.throttleStatus.currentlyAvailable).toBe(26);
    await h.control('PUT', `shops/${h.shopDomain}/cost-bucket`, { currentlyAvailable: 5 });
    const response = await fetch(`${h.adminUrl}/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': h.accessToken },
      body: JSON.stringify({ query: expensive }),
    });
    expect(response.status).toBe(200);
    const throttled = (await response.json()) as Record<string, unknown>;
    expect(throttled).toEqual({
      errors: [
        {
          message: 'Throttled',
          extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' },
        },
      ],
      extensions: {
        cost: {
          requestedQueryCost: 12,
          actualQueryCost: null,
          throttleStatus: { maximumAvailable: 30, currentlyAvailable: 5, restoreRate: 5 },
        },
      },
    });
    await clock.advance(2_000);
    expect((await h.graphql(expensive)).errors).toBeUndefined();
    const requests = await h.control('GET', `shops/${h.shopDomain}/admin-requests?api=graphql`);
    expect((requests.body.requests as Array<{ outcome: string }>).map((r) => r.outcome)).toEqual([
      'ok',
      'throttled',
      'ok',
    ]);
  });

  it('refuses a single query above the single-query limit, which is its own setting', async () => {
    // 2 + 10 × (1 + 2 + 100) = 1,032: above the default limit of 1,000, well within the 2,000 bucket.
    const query = '{ products(first: 10) { nodes { id variants(first: 100) { nodes { id } } } } }';
    h = await startShopifySandbox();
    const reply = await h.graphql(query);
    expect(reply.errors).toEqual([
      {
        message: 'Query cost is 1032, which exceeds the single query max cost limit (1000).',
        extensions: {
          code: 'MAX_COST_EXCEEDED',
          cost: 1032,
          maxCost: 1000,
          documentation: 'https://shopify.dev/api/usage/rate-limits',
        },
      },
    ]);
    expect(reply.extensions.cost.throttleStatus.currentlyAvailable).toBe(2000);
    await h.close();
    h = await startShopifySandbox({ cost: { maxQueryCost: 1_500, bucketSize: 2_000 } });
    expect((await h.graphql(query)).errors).toBeUndefined();
    await h.close();
    h = await startShopifySandbox({ cost: { bucketSize: 100_000 } });
    expect((await h.graphql(query)).errors?.[0].extensions?.maxCost).toBe(1000);
  });

  it('charges the actual cost of what came back: fewer nodes, less than requested', async () => {
    h = await startShopifySandbox();
    const a = await h.merchant('POST', 'products.json', {
      product: { title: 'A', options: [{ name: 'Size' }], variants: [{ option1: 'S' }, { option1: 'M' }] },
    });
    expect(a.status).toBe(201);
    await h.merchant('POST', 'products.json', { product: { title: 'B' } });
    const reply = await h.graphql(
      '{ products(first: 10) { nodes { id variants(first: 20) { nodes { sku } } } } }',
    );
    // requested 2 + 10 × (1 + 2 + 20) = 232; actual 2 + (1 + 2 + 2) + (1 + 2 + 1) = 11
    expect(reply.extensions.cost).toMatchObject({ requestedQueryCost: 232, actualQueryCost: 11 });
    expect(reply.extensions.cost.throttleStatus.currentlyAvailable).toBe(2000 - 11);
  });
});
