import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './support/connector-harness.js';
import { type SyncWorld, startSyncWorld } from './support/sync-world.js';

/**
 * Issue 30, large products, over both sandboxes: a product over the catalog's 200 variants per
 * parent becomes one parent per first-option value (chunked by 200), under the default `split`
 * policy; a renamed value moves nothing; a variant changing group is a delete and a create.
 * (The Shopify sandbox numbers option value ids by first appearance, where Shopify keeps them
 * fixed: the tests change values in ways that keep that order.)
 */
describe('large products (split policy)', () => {
  let world: SyncWorld;

  beforeAll(async () => {
    world = await startSyncWorld({
      // Budgets that never run dry: the test is about the split, not the rate limits.
      shopify: { cost: { bucketSize: 1_000_000, restoreRate: 1_000_000 } },
      env: { CONNECTOR_CATALOG_RATE_PER_SECOND: '2000', CONNECTOR_CATALOG_RATE_BURST: '50' },
    });
  });
  afterAll(async () => {
    await world?.close();
  });

  interface Row {
    variant: string | null;
    kind: string;
    supplier_sku: string;
    parent: string | null;
    variant_group: string | null;
    sku_id: string | null;
    state: string;
  }

  async function rows(productId: string): Promise<Row[]> {
    const { rows } = await world.harness.db.query<Row>(
      `SELECT shopify_variant_id::text AS variant, kind, supplier_sku, parent_supplier_sku AS parent,
              variant_group, sku_id, state
         FROM "${world.harness.schema}".sku_map WHERE shop = $1 AND shopify_product_id = $2 ORDER BY id`,
      [world.shop.domain, productId],
    );
    return rows;
  }

  /** Waits until the product's map holds `parents` live parents and `variants` live variants. */
  async function synced(productId: string, parents: number, variants: number): Promise<Row[]> {
    return eventually(async () => {
      const found = (await rows(productId)).filter((r) => r.state === 'live');
      const p = found.filter((r) => r.kind === 'parent').length;
      const v = found.filter((r) => r.kind === 'variant').length;
      return p === parents && v === variants && found;
    }, 120_000);
  }

  interface ShopifyVariant {
    id: number;
    position: number;
    option1: string;
    option2: string;
  }

  /** The product's variants as the merchant API lists them, in position order. */
  async function shopifyVariants(productId: string): Promise<ShopifyVariant[]> {
    const read = (await world.sandboxes.merchant(world.shop, 'GET', `products/${productId}.json`)).body
      .product as { variants: ShopifyVariant[] };
    return [...read.variants].sort((a, b) => a.position - b.position);
  }

  const matrix = (colours: string[], sizes: number) =>
    colours.flatMap((colour) =>
      Array.from({ length: sizes }, (_, i) => ({ option1: colour, option2: `S${i + 1}`, price: '5.00' })),
    );

  function perParent(found: Row[]): Map<string, number> {
    const counts = new Map<string, number>();
    for (const r of found)
      if (r.kind === 'variant') counts.set(r.parent as string, (counts.get(r.parent as string) ?? 0) + 1);
    return counts;
  }

  it('makes 3 colours × 200 sizes three catalog parents of 200, one per colour', async () => {
    const productId = await world.createProduct({
      title: 'Rainbow tee',
      vendor: 'Acme',
      options: [{ name: 'Colour' }, { name: 'Size' }],
      variants: matrix(['Red', 'Green', 'Blue'], 200),
    });
    const found = await synced(productId, 3, 600);
    const parents = found.filter((r) => r.kind === 'parent');
    expect(
      parents.every(
        (p) =>
          p.supplier_sku ===
          `${world.shop.domain.replace('.myshopify.com', '')}:product:${productId}:${p.variant_group}`,
      ),
    ).toBe(true);
    expect([...perParent(found).values()]).toEqual([200, 200, 200]);
    for (const parent of parents) {
      const record = await world.catalogRecord(parent.sku_id as string);
      expect(record?.supplierSku).toBe(parent.supplier_sku);
    }
  });

  it('makes 2 colours × 1,024 sizes twelve parents, six per colour', async () => {
    const productId = await world.createProduct({
      title: 'Huge tee',
      vendor: 'Acme',
      options: [{ name: 'Colour' }, { name: 'Size' }],
      variants: matrix(['Black', 'White'], 1024),
    });
    const found = await synced(productId, 12, 2048);
    const counts = [...perParent(found).values()];
    expect(counts).toHaveLength(12);
    expect(Math.max(...counts)).toBeLessThanOrEqual(200);
    const groups = found.filter((r) => r.kind === 'parent').map((r) => r.variant_group as string);
    const byColour = new Map<string, number>();
    for (const g of groups)
      byColour.set(g.split('-')[0] as string, (byColour.get(g.split('-')[0] as string) ?? 0) + 1);
    expect([...byColour.values()]).toEqual([6, 6]);
  }, 180_000);

  it('moves nothing when an option value is renamed: zero creates and deletes, the same records', async () => {
    const productId = await world.createProduct({
      title: 'Small rainbow',
      vendor: 'Acme',
      options: [{ name: 'Colour' }, { name: 'Size' }],
      variants: matrix(['Red', 'Green', 'Blue'], 70),
    });
    const before = await synced(productId, 3, 210);
    // In position order: the update sends them so, and the sandbox numbers values in that order.
    const product = { variants: await shopifyVariants(productId) };

    // Rename Green to Lime on every variant that has it: the value keeps its id.
    const since = Date.now();
    await world.updateProduct(productId, {
      variants: product.variants.map((v) => ({
        id: v.id,
        option1: v.option1 === 'Green' ? 'Lime' : v.option1,
        option2: v.option2,
      })),
    });
    await world.settle(productId);
    const renamed = await shopifyVariants(productId);
    expect(renamed.filter((v) => v.option1 === 'Lime')).toHaveLength(70);
    // The sync ran on the rename (and changed nothing).
    expect((await world.syncRecords(productId)).length).toBeGreaterThan(1);
    const afterRename = await rows(productId);
    expect(afterRename.map((r) => [r.supplier_sku, r.parent, r.sku_id])).toEqual(
      before.map((r) => [r.supplier_sku, r.parent, r.sku_id]),
    );
    const writes = (await world.catalogCalls(since)).filter(
      (c) => c.method === 'POST' || c.method === 'DELETE',
    );
    expect(writes.filter((c) => c.path !== '/v1/products/search')).toEqual([]);
  }, 180_000);

  it('deletes and creates a variant that changes group (the catalog cannot re-parent it)', async () => {
    const productId = await world.createProduct({
      title: 'Moving rainbow',
      vendor: 'Acme',
      options: [{ name: 'Colour' }, { name: 'Size' }],
      variants: matrix(['Red', 'Green', 'Blue'], 70),
    });
    const before = await synced(productId, 3, 210);
    const variants = await shopifyVariants(productId);
    // The first Blue variant becomes Green. (Green still first appears before Blue: the sandbox
    // numbers a value's id by its first appearance, so the value ids stay, as on Shopify.)
    const moving = variants[140] as (typeof variants)[number];
    expect(moving.option1).toBe('Blue');
    const [, green] = before.filter((r) => r.kind === 'parent') as [Row, Row, Row];
    const old = before.find((r) => r.variant === String(moving.id)) as Row;
    const since = Date.now();
    await world.updateProduct(productId, {
      variants: variants.map((v) => ({
        id: v.id,
        option1: v.id === moving.id ? 'Green' : v.option1,
        option2: v.id === moving.id ? 'S999' : v.option2,
      })),
    });
    const moved = await eventually(async () => {
      const row = (await rows(productId)).find((r) => r.variant === String(moving.id));
      return row?.state === 'live' && row.parent === green.supplier_sku && row;
    }, 30_000);
    expect(moved.supplier_sku).toBe(old.supplier_sku);
    expect(moved.sku_id).not.toBe(old.sku_id);
    const calls = (await world.catalogCalls(since)).filter(
      (c) => c.method === 'POST' || c.method === 'DELETE',
    );
    expect(calls.filter((c) => c.path !== '/v1/products/search').map((c) => `${c.method} ${c.path}`)).toEqual(
      [`DELETE /v1/variants/${old.sku_id}`, 'POST /v1/variants'],
    );
    expect(await world.catalogRecord(old.sku_id as string, 'variants')).toBeNull();
    const after = await rows(productId);
    expect(
      after.filter((r) => r.state === 'live' && r.variant !== String(moving.id)).map((r) => r.sku_id),
    ).toEqual(before.filter((r) => r.variant !== String(moving.id)).map((r) => r.sku_id));
  });

  // Issue 40, item 5: a split product made simple keeps one record (its first parent, now
  // simple); the other group parents are deleted in the catalog and leave the map.
  it('makes a split product that becomes simple exactly one record, in the catalog and in the map', async () => {
    const productId = await world.createProduct({
      title: 'Simplified rainbow',
      vendor: 'Acme',
      options: [{ name: 'Colour' }, { name: 'Size' }],
      variants: matrix(['Red', 'Green', 'Blue'], 70),
    });
    const split = await synced(productId, 3, 210);
    const [first] = split.filter((r) => r.kind === 'parent') as [Row];
    const since = Date.now();
    await world.updateProduct(productId, { options: [], variants: [{ price: '12.00' }] });
    const left = await eventually(async () => {
      const found = (await rows(productId)).filter((r) => r.state !== 'tombstoned');
      return found.length === 1 && found[0]?.kind === 'simple' && found[0].state === 'live' && found;
    }, 60_000);
    expect(left).toEqual([
      expect.objectContaining({
        supplier_sku: first.supplier_sku,
        sku_id: first.sku_id,
        variant_group: null,
      }),
    ]);
    // The other parents' rows are gone from the map; the variants' rows are tombstoned.
    const all = await rows(productId);
    expect(all.filter((r) => r.kind !== 'variant')).toHaveLength(1);
    expect(all.filter((r) => r.kind === 'variant').every((r) => r.state === 'tombstoned')).toBe(true);
    // In the catalog, of every record the product had, only the kept one is left.
    const search = await world.account.api.post('/v1/products/search', {
      filter: { skuId: { $in: split.map((r) => r.sku_id as string) } },
      pagination: { offset: 0, limit: 500 },
    });
    const found = (search.body as { data: { products: Array<{ skuId: string }> } }).data.products;
    expect(found.map((r) => r.skuId)).toEqual([first.sku_id]);
    const calls = (await world.catalogCalls(since)).filter((c) => c.method !== 'GET' && c.method !== 'POST');
    expect(calls.filter((c) => c.method === 'DELETE' && c.path.startsWith('/v1/products/'))).toHaveLength(2);
    expect(calls.filter((c) => c.method === 'DELETE' && c.path.startsWith('/v1/variants/'))).toHaveLength(
      210,
    );
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.path)).toEqual([
      `/v1/products/${first.sku_id}`,
    ]);
    expect((await world.syncRecords(productId)).map((r) => r.outcome)).not.toContain('failed');
  }, 180_000);

  // Issue 40, item 5: a parent a shape no longer needs leaves the map, so a later shape can need
  // it again: one parent, split (the parent deleted), one parent again (created anew).
  it('makes a one-parent product that grows over 200 and shrinks back one parent again, no failure', async () => {
    const productId = await world.createProduct({
      title: 'Breathing rainbow',
      vendor: 'Acme',
      options: [{ name: 'Colour' }, { name: 'Size' }],
      variants: matrix(['Red', 'Blue'], 60),
    });
    const [first] = (await synced(productId, 1, 120)).filter((r) => r.kind === 'parent') as [Row];
    expect(first.variant_group).toBeNull();
    const small = await shopifyVariants(productId);
    const keep = small.map((v) => ({ id: v.id, option1: v.option1, option2: v.option2 }));
    const added = (colour: string) =>
      Array.from({ length: 50 }, (_, i) => ({ option1: colour, option2: `S${61 + i}`, price: '5.00' }));
    await world.updateProduct(productId, {
      variants: [
        ...keep.filter((v) => v.option1 === 'Red'),
        ...added('Red'),
        ...keep.filter((v) => v.option1 === 'Blue'),
        ...added('Blue'),
      ],
    });
    const split = await synced(productId, 2, 220);
    expect(split.filter((r) => r.kind === 'parent').every((r) => r.variant_group !== null)).toBe(true);
    // The one parent's row left the map with its record.
    expect((await rows(productId)).filter((r) => r.supplier_sku === first.supplier_sku)).toEqual([]);
    expect(await world.catalogRecord(first.sku_id as string)).toBeNull();

    const grown = await shopifyVariants(productId);
    await world.updateProduct(productId, {
      variants: grown
        .filter((v) => v.option1 === 'Red')
        .map((v) => ({ id: v.id, option1: v.option1, option2: v.option2 })),
    });
    const back = await synced(productId, 1, 110);
    const [parent] = back.filter((r) => r.kind === 'parent') as [Row];
    expect(parent).toMatchObject({ supplier_sku: first.supplier_sku, variant_group: null });
    expect((await rows(productId)).filter((r) => r.kind === 'parent' && r.state !== 'live')).toEqual([]);
    expect((await world.syncRecords(productId)).map((r) => r.outcome)).not.toContain('failed');
  }, 180_000);

  it('makes a split product that shrinks back to 200 variants or fewer one parent again', async () => {
    const productId = await world.createProduct({
      title: 'Shrinking rainbow',
      vendor: 'Acme',
      options: [{ name: 'Colour' }, { name: 'Size' }],
      variants: matrix(['Red', 'Blue'], 110),
    });
    await synced(productId, 2, 220);
    const variants = await shopifyVariants(productId);
    // The merchant deletes every Blue variant: 110 are left, under one parent.
    await world.updateProduct(productId, {
      variants: variants
        .filter((v) => v.option1 === 'Red')
        .map((v) => ({ id: v.id, option1: v.option1, option2: v.option2 })),
    });
    const found = await synced(productId, 1, 110);
    const [parent] = found.filter((r) => r.kind === 'parent') as [Row];
    expect(parent.variant_group).toBeNull();
    expect(found.filter((r) => r.kind === 'variant').every((r) => r.parent === parent.supplier_sku)).toBe(
      true,
    );
    expect(await world.catalogRecord(parent.sku_id as string)).not.toBeNull();
    const outcomes = (await world.syncRecords(productId)).map((r) => r.outcome);
    expect(outcomes).not.toContain('failed');
  });
});
