import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CanonicalSources,
  canonicalReadCost,
  NO_EXTRA_SOURCES,
} from '../src/clients/shopify/documents/canonical-product.query.js';
import { call } from './support/admin-client.js';
import { eventually } from './support/connector-harness.js';
import { attribute, type MapRow, type SyncWorld, startSyncWorld } from './support/sync-world.js';

/** The mapping's richer sources (issue 30); the demo's write-back section goes (it owns `material`). */
const withSources = (yaml: string) =>
  yaml
    .replace(/^writeBack:[\s\S]*$/m, '')
    .replace(
      /^product:\n/m,
      `product:
  metafields.custom.fabric: material
  category.fullName: externalCategory
  collections:
    attribute: occasions
    values: { weekend: Casual, office-wear: Work }
`,
    )
    .replace(/^variant:\n/m, 'variant:\n  metafields.custom.weight: weightGrams\n');

const SOURCES: CanonicalSources = {
  productMetafields: [{ namespace: 'custom', key: 'fabric' }],
  variantMetafields: [{ namespace: 'custom', key: 'weight' }],
  category: true,
  collections: true,
};

interface LoggedRead {
  operationName: string | null;
  variables: Record<string, unknown> | null;
  requestedQueryCost: number | null;
}

// Metafields, the category and collections reach the catalog's attributes through a mapping that
// maps them, and the canonical read asks for them only when the mapping does.
describe('richer mapping sources', () => {
  let world: SyncWorld;
  let productId = '';
  const token = `admin-${randomBytes(16).toString('hex')}`;

  beforeAll(async () => {
    // Whole-shop resyncs read the shop in bulk (any product count over 0).
    world = await startSyncWorld({
      shopify: { bulk: { stepMs: 50 } },
      env: {
        CONNECTOR_ADMIN_TOKEN: token,
        CONNECTOR_BULK_THRESHOLD: '0',
        CONNECTOR_BULK_POLL_MS: '50',
      },
    });
  });
  afterAll(async () => {
    await world?.close();
  });

  const reads = async (productId: string) =>
    ((await world.sandboxes.adminRequests(world.shop)) as unknown as LoggedRead[]).filter(
      (r) =>
        r.operationName === 'CanonicalProduct' && r.variables?.id === `gid://shopify/Product/${productId}`,
    );
  const liveRows = (productId: string, count: number) =>
    eventually(async () => {
      const rows = await world.mapRows(productId);
      return rows.length === count && rows.every((r) => r.state === 'live') && rows;
    }, 30_000);
  /** A read's requested cost is that of the canonical read with `sources`, media or not. */
  const costOf = (read: LoggedRead, sources: CanonicalSources) => {
    const variants = Number(read.variables?.variants);
    const collections = Number(read.variables?.collections ?? 25);
    return [true, false].map((media) => canonicalReadCost(variants, media, sources, collections));
  };

  it('a mapping without them reads without them; one that maps them puts them on the records', async () => {
    productId = await world.createProduct({
      title: 'Canvas tote',
      vendor: 'Acme',
      product_type: 'Shirts',
      options: [{ name: 'Size' }],
      variants: [
        { option1: 'Small', price: '20.00' },
        { option1: 'Large', price: '22.00' },
      ],
    });
    await liveRows(productId, 3);
    await world.settle(productId);
    const plain = await reads(productId);
    expect(plain.length).toBeGreaterThan(0);
    for (const read of plain) {
      expect(read.variables).not.toHaveProperty('collections');
      expect(costOf(read, NO_EXTRA_SOURCES)).toContain(read.requestedQueryCost);
    }

    // The merchant fills two metafields and puts the product in two collections.
    const gid = `gid://shopify/Product/${productId}`;
    const shown = await world.sandboxes.merchant(world.shop, 'GET', `products/${productId}.json`);
    const variantGids = (
      shown.body.product as { variants: Array<{ admin_graphql_api_id: string }> }
    ).variants.map((v) => v.admin_graphql_api_id);
    const set = await world.sandboxes.merchant(world.shop, 'POST', 'graphql.json', {
      query:
        'mutation Set($m: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $m) { userErrors { message } } }',
      variables: {
        m: [
          {
            ownerId: gid,
            namespace: 'custom',
            key: 'fabric',
            type: 'single_line_text_field',
            value: 'Canvas',
          },
          {
            ownerId: variantGids[1],
            namespace: 'custom',
            key: 'weight',
            type: 'number_integer',
            value: '350',
          },
        ],
      },
    });
    expect((set.body.data as { metafieldsSet: { userErrors: unknown[] } }).metafieldsSet.userErrors).toEqual(
      [],
    );
    for (const title of ['Weekend', 'Office wear']) {
      const made = await world.sandboxes.merchant(world.shop, 'POST', 'custom_collections.json', {
        custom_collection: { title, collects: [{ product_id: Number(productId) }] },
      });
      expect(made.status).toBe(201);
    }

    // A connector whose mapping maps them; a merchant edit makes it read the product again.
    await world.restart(withSources);
    await world.updateProduct(productId, { title: 'Canvas tote bag' });
    const rows = await eventually(async () => {
      const now = await world.mapRows(productId);
      const parent = now.find((r) => r.shopify_variant_id === null);
      const weighed = now.some((r) => r.shopify_variant_id !== null && r.snapshot.weightGrams !== undefined);
      return parent?.snapshot.occasions !== undefined && weighed && now;
    }, 30_000);
    const parent = rows.find((r) => r.shopify_variant_id === null) as MapRow;
    const record = await world.catalogRecord(parent.sku_id as string);
    expect(attribute(record, 'material')).toBe('Canvas');
    expect(attribute(record, 'occasions')).toEqual(['Casual', 'Work']);
    // The Shopify sandbox has no standard product categories: the category reads as none.
    expect(attribute(record, 'externalCategory') ?? null).toBeNull();
    const large = rows.find((r) => r.shopify_variant_id !== null && r.snapshot.weightGrams !== undefined);
    expect(large).toBeDefined();
    const variant = await world.catalogRecord(large?.sku_id as string, 'variants');
    expect(attribute(variant, 'weightGrams')).toBe('350');

    const rich = (await reads(productId)).slice(plain.length);
    expect(rich.length).toBeGreaterThan(0);
    for (const read of rich) {
      expect(read.variables).toMatchObject({ collections: 25 });
      expect(costOf(read, SOURCES)).toContain(read.requestedQueryCost);
    }
  });

  it('a resync through a bulk read reads such a product itself: the snapshot does not hold its sources', async () => {
    expect(productId).not.toBe('');
    await world.settle(productId);
    const before = (await reads(productId)).length;
    const admin = <T>(method: string, path: string) => call<T>(world.harness.url, method, path, token);
    const started = await admin<{ id: string }>('POST', `/admin/resync?shop=${world.shop.domain}`);
    expect(started.status, started.text).toBe(200);
    const run = await eventually(async () => {
      const answer = await admin<{ state: string; readMode: string | null }>(
        'GET',
        `/admin/resync/${started.body.id}`,
      );
      return answer.body.state !== 'running' && answer.body;
    }, 60_000);
    expect(run).toMatchObject({ state: 'done', readMode: 'bulk' });
    const resynced = await eventually(async () => {
      const runs = await world.syncRecords(productId);
      return runs.find((r) => r.reason === 'resync' && r.outcome === 'synced') ?? false;
    }, 30_000);
    expect(resynced.events).toContain(
      'the mapping reads metafields, the category or collections: no bulk snapshot holds them',
    );
    expect(resynced.events.some((e) => e.startsWith('planned from the bulk read'))).toBe(false);
    expect((await reads(productId)).length).toBe(before + 1);
    const [parent] = await world.mapRows(productId);
    const record = await world.catalogRecord(parent?.sku_id as string);
    expect(attribute(record, 'material')).toBe('Canvas');
    expect(attribute(record, 'occasions')).toEqual(['Casual', 'Work']);
  });
});
