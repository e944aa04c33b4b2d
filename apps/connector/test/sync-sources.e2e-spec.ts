import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CanonicalSources,
  canonicalReadCost,
  NO_EXTRA_SOURCES,
} from '../src/clients/shopify/documents/canonical-product.query.js';
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

  beforeAll(async () => {
    world = await startSyncWorld();
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
    const productId = await world.createProduct({
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
      return parent?.snapshot.occasions !== undefined && now;
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
});
