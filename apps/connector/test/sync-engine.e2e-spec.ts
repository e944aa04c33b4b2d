import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './support/connector-harness.js';
import { attribute, type MapRow, type SyncWorld, startSyncWorld, writes } from './support/sync-world.js';

// The sync engine end to end: merchant writes in the Shopify sandbox, its signed webhooks, the
// connector with PostgreSQL and the queue, and the catalog sandbox counting every call.
describe('the sync engine', () => {
  let world: SyncWorld;
  /** The fault point: the n-th catalog create from now throws right after the catalog answered. */
  let crashAtCreate = 0;
  /**
   * When set, the next product's variant creates (every create after its parent's, up to `size`)
   * hold in the fault point until `size` of them are there at once (10 s at most: creates made
   * one after another never meet); the `crashNth` one to leave then throws.
   */
  let gather: {
    size: number;
    crashNth: number;
    creates: number;
    held: number;
    peak: number;
    left: number;
  } | null = null;
  let releaseGathered: () => void = () => undefined;

  beforeAll(async () => {
    world = await startSyncWorld({
      // The large-product policy before issue 30 (a failure): the split is large-products.e2e-spec.ts'.
      env: { CONNECTOR_LARGE_PRODUCTS: 'fail' },
      syncHooks: {
        afterCatalogCreate: async (_subject, supplierSku) => {
          const g = gather;
          if (g !== null && ++g.creates > 1 && g.creates <= 1 + g.size) {
            g.held += 1;
            g.peak = Math.max(g.peak, g.held);
            const met = new Promise<void>((resolve) => {
              const previous = releaseGathered;
              releaseGathered = () => {
                previous();
                resolve();
              };
            });
            if (g.held === g.size) releaseGathered();
            await Promise.race([met, new Promise((resolve) => setTimeout(resolve, 10_000))]);
            g.held -= 1;
            if (++g.left === g.crashNth) throw new Error(`fault point: crash after creating ${supplierSku}`);
            return;
          }
          if (crashAtCreate === 0) return;
          crashAtCreate -= 1;
          if (crashAtCreate === 0) throw new Error(`fault point: crash after creating ${supplierSku}`);
        },
      },
    });
  });
  afterAll(async () => {
    await world?.close();
  });

  const shirt = (title: string) => ({
    title,
    vendor: 'Acme',
    product_type: 'Shirts',
    body_html: '<p>Soft linen.</p>',
    options: [{ name: 'Size' }],
    variants: [
      { option1: 'Small', price: '35.00', barcode: '4006381333931', sku: `${title}-S` },
      { option1: 'M', price: '36.00', barcode: '4006381333948', sku: `${title}-M` },
    ],
  });
  const liveRows = (productId: string, count: number) =>
    eventually(async () => {
      const rows = await world.mapRows(productId);
      const live = rows.filter((r) => r.state === 'live');
      return live.length === count && live.every((r) => r.sku_id !== null) && live;
    }, 30_000);
  const synced = async (productId: string, rowCount: number) => {
    await world.settle(productId);
    return liveRows(productId, rowCount);
  };
  const callsDuring = async (productId: string, change: () => Promise<unknown>) => {
    await world.settle(productId);
    const before = (await world.syncRecords(productId)).length;
    const since = Date.now();
    await change();
    await world.settle(productId);
    await eventually(async () => (await world.syncRecords(productId)).length > before);
    return writes(await world.catalogCalls(since));
  };

  it('creates a parent and one variant per Shopify variant, with the mapped values, and maps every skuId', async () => {
    const productId = await world.createProduct(shirt('Linen Shirt'));
    const [parent, small, medium] = (await synced(productId, 3)) as [MapRow, MapRow, MapRow];
    expect(parent).toMatchObject({ kind: 'parent', shopify_variant_id: null });
    expect([small.kind, medium.kind]).toEqual(['variant', 'variant']);
    const record = await world.catalogRecord(parent.sku_id as string);
    expect(attribute(record, 'name')).toBe('Linen Shirt');
    expect(attribute(record, 'brand')).toBe('Acme');
    expect(attribute(record, 'productModel')).toBe('4006381333931');
    const variant = await world.catalogRecord(small.sku_id as string, 'variants');
    expect(attribute(variant, 'size')).toBe('S');
    expect(attribute(variant, 'gtin')).toBe('4006381333931');
    expect(String(attribute(variant, 'price'))).toContain('35');
    expect(attribute(await world.catalogRecord(medium.sku_id as string, 'variants'), 'size')).toBe('M');
    const records = await world.syncRecords(productId);
    expect(records.some((r) => r.calls.some((c) => c.method === 'POST' && c.path === '/v1/variants'))).toBe(
      true,
    );
  });

  it('sends only what changed: one PATCH for a title, one for a variant price, none for inventory', async () => {
    const productId = await world.createProduct(shirt('Edit Shirt'));
    await synced(productId, 3);
    expect(
      await callsDuring(productId, () => world.updateProduct(productId, { title: 'Edited Shirt' })),
    ).toEqual(['PATCH /v1/products/{skuId}']);
    const current = await world.updateProduct(productId, {});
    const [first, second] = current.variants as Array<{ id: number; inventory_item_id: number }>;
    expect(
      await callsDuring(productId, () =>
        world.updateProduct(productId, {
          variants: [{ id: first?.id, price: '40.00' }, { id: second?.id }],
        }),
      ),
    ).toEqual(['PATCH /v1/variants/{skuId}']);
    const inventory = await callsDuring(productId, () =>
      world.sandboxes.merchant(world.shop, 'POST', 'inventory_levels/set.json', {
        inventory_item_id: first?.inventory_item_id,
        available: 17,
      }),
    );
    expect(inventory).toEqual([]);
    const [parent] = await world.mapRows(productId);
    expect(attribute(await world.catalogRecord(parent?.sku_id as string), 'name')).toBe('Edited Shirt');
  });

  it('keeps the record when options come and go: variants are added, then removed, never the product', async () => {
    const productId = await world.createProduct({
      title: 'Plain Mug',
      vendor: 'Acme',
      variants: [{ price: '9.00' }],
    });
    const [simple] = (await synced(productId, 1)) as [MapRow];
    expect(simple.kind).toBe('simple');
    expect(String(attribute(await world.catalogRecord(simple.sku_id as string), 'price'))).toContain('9');

    const gained = await callsDuring(productId, () =>
      world.updateProduct(productId, {
        options: [{ name: 'Size' }],
        variants: [
          { option1: 'S', price: '9.00' },
          { option1: 'L', price: '11.00' },
        ],
      }),
    );
    expect(gained).toEqual(['PATCH /v1/products/{skuId}', 'POST /v1/variants', 'POST /v1/variants']);
    const [parent] = (await liveRows(productId, 3)) as [MapRow];
    expect(parent).toMatchObject({ kind: 'parent', sku_id: simple.sku_id });
    // Variant-level values leave the parent, so they cannot cascade to variants without their own.
    expect(attribute(await world.catalogRecord(parent.sku_id as string), 'price') ?? null).toBeNull();

    const lost = await callsDuring(productId, () =>
      world.updateProduct(productId, { options: [], variants: [{ price: '12.00' }] }),
    );
    expect(lost.sort()).toEqual([
      'DELETE /v1/variants/{skuId}',
      'DELETE /v1/variants/{skuId}',
      'PATCH /v1/products/{skuId}',
    ]);
    const [back] = (await liveRows(productId, 1)) as [MapRow];
    expect(back).toMatchObject({ kind: 'simple', sku_id: simple.sku_id });
    expect(String(attribute(await world.catalogRecord(simple.sku_id as string), 'price'))).toContain('12');
  });

  it('deletes the variants, then the product, and tombstones the map rows', async () => {
    const productId = await world.createProduct(shirt('Doomed Shirt'));
    const rows = await synced(productId, 3);
    const calls = await callsDuring(productId, () => world.deleteProduct(productId));
    expect(calls).toEqual([
      'DELETE /v1/variants/{skuId}',
      'DELETE /v1/variants/{skuId}',
      'DELETE /v1/products/{skuId}',
    ]);
    const after = await world.mapRows(productId);
    expect(after.map((r) => r.state)).toEqual(['tombstoned', 'tombstoned', 'tombstoned']);
    expect(await world.catalogRecord(rows[0]?.sku_id as string)).toBeNull();
  });

  it('leaves exactly one record when the job dies between a catalog create and the map update', async () => {
    crashAtCreate = 2; // the first variant, after its parent
    const productId = await world.createProduct(shirt('Crash Shirt'));
    const rows = await synced(productId, 3);
    expect(crashAtCreate).toBe(0);
    for (const row of rows) expect(await world.recordsWithSupplierSku(row.supplier_sku)).toHaveLength(1);
    const records = await world.syncRecords(productId);
    expect(records.map((r) => r.outcome)).toContain('failed');
    expect(records.at(-1)?.outcome).toBe('synced');
    expect(records.flatMap((r) => r.events).join('\n')).toContain('pending create was resolved');
  });

  it("creates a new product's variants at once, and maps the others when one of them crashes", async () => {
    gather = { size: 3, crashNth: 2, creates: 0, held: 0, peak: 0, left: 0 };
    try {
      const productId = await world.createProduct({
        ...shirt('Gathered Shirt'),
        variants: [
          { option1: 'Small', price: '35.00', barcode: '4006381333931', sku: 'Gathered-S' },
          { option1: 'M', price: '36.00', barcode: '4006381333948', sku: 'Gathered-M' },
          { option1: 'L', price: '37.00', barcode: '4006381333955', sku: 'Gathered-L' },
        ],
      });
      const rows = await synced(productId, 4);
      // All three variant creates had answered before any of them was mapped: they were in flight together.
      expect(gather.peak).toBe(3);
      for (const row of rows) expect(await world.recordsWithSupplierSku(row.supplier_sku)).toHaveLength(1);
      const records = await world.syncRecords(productId);
      const failed = records.find((r) => r.outcome === 'failed');
      expect(failed?.calls.filter((c) => c.method === 'POST')).toHaveLength(4);
      // The two variants that did not crash were mapped by the failed run: the retry resolves only the third.
      const retry = records[records.indexOf(failed as (typeof records)[number]) + 1];
      expect(retry?.outcome).toBe('synced');
      expect(retry?.calls).toHaveLength(1);
      expect(retry?.events.join('\n')).toContain('pending create was resolved');
    } finally {
      gather = null;
      releaseGathered = () => undefined;
    }
  });

  it('leaves exactly one record per supplierSku with commit-then-drop on 10% of the POSTs', async () => {
    await world.account.controls.setFaults({
      commitThenDrop: { method: 'POST', probability: 0.1 },
      seed: 11,
    });
    const all: MapRow[] = [];
    try {
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) ids.push(await world.createProduct(shirt(`Dropped ${i}`)));
      for (const id of ids) all.push(...(await synced(id, 3)));
      const report = await world.account.controls.faults();
      expect(report.injected.commitThenDrop).toBeGreaterThan(0);
    } finally {
      await world.account.controls.clearFaults();
    }
    expect(all).toHaveLength(24);
    for (const row of all) expect(await world.recordsWithSupplierSku(row.supplier_sku)).toHaveLength(1);
  });

  it('records an option value the catalog does not know as a mapping gap, and syncs the rest', async () => {
    const productId = await world.createProduct({
      title: 'Giant Tee',
      vendor: 'Acme',
      options: [{ name: 'Size' }],
      variants: [
        { option1: 'Gigantic', price: '20.00' },
        { option1: 'L', price: '20.00' },
      ],
    });
    const [, odd, large] = (await synced(productId, 3)) as [MapRow, MapRow, MapRow];
    expect(odd.gaps).toMatchObject([{ attribute: 'size', values: ['Gigantic'] }]);
    expect(large.gaps).toEqual([]);
    expect(attribute(await world.catalogRecord(odd.sku_id as string, 'variants'), 'size') ?? null).toBeNull();
    const records = await world.syncRecords(productId);
    expect(records.at(-1)?.detail).toContain('mapping gap');
  });

  it('recreates a record deleted in the catalog behind its back, and says so', async () => {
    const productId = await world.createProduct({
      title: 'Lost Lamp',
      vendor: 'Acme',
      variants: [{ price: '30.00' }],
    });
    const [row] = (await synced(productId, 1)) as [MapRow];
    expect((await world.account.api.delete(`/v1/products/${row.sku_id}`)).status).toBe(200);
    await callsDuring(productId, () => world.updateProduct(productId, { title: 'Found Lamp' }));
    const [again] = (await liveRows(productId, 1)) as [MapRow];
    expect(again.sku_id).not.toBe(row.sku_id);
    expect(attribute(await world.catalogRecord(again.sku_id as string), 'name')).toBe('Found Lamp');
    expect(await world.recordsWithSupplierSku(row.supplier_sku)).toHaveLength(1);
    const events = (await world.syncRecords(productId)).flatMap((r) => r.events).join('\n');
    expect(events).toContain('gone from the catalog: recreated');
  });

  it('keeps the records of a product set to draft, and sends nothing for it', async () => {
    const productId = await world.createProduct({
      title: 'Draft Desk',
      vendor: 'Acme',
      variants: [{ price: '90.00' }],
    });
    const [row] = (await synced(productId, 1)) as [MapRow];
    expect(
      await callsDuring(productId, () => world.updateProduct(productId, { status: 'draft', title: 'Desk' })),
    ).toEqual([]);
    expect(attribute(await world.catalogRecord(row.sku_id as string), 'name')).toBe('Draft Desk');
    expect((await world.syncRecords(productId)).at(-1)?.detail).toContain('status DRAFT is not synced');
  });

  it('reports a product over 200 variants as a failure under the fail policy, and sends nothing for it', async () => {
    const variants = Array.from({ length: 201 }, (_, i) => ({ option1: `V${i}`, price: '5.00' }));
    const productId = await world.createProduct({
      title: 'Huge Set',
      vendor: 'Acme',
      options: [{ name: 'Pattern' }],
      variants,
    });
    const rows = await eventually(async () => {
      const found = await world.harness.db.query<{ error_code: string; error_message: string }>(
        `SELECT error_code, error_message FROM "${world.harness.schema}".failures WHERE subject_key = $1`,
        [productId],
      );
      return found.rows.length > 0 && found.rows;
    }, 30_000);
    expect(rows).toMatchObject([{ error_code: 'variant_limit_exceeded' }]);
    expect(rows[0]?.error_message).toContain('201 variants');
    expect(await world.mapRows(productId)).toEqual([]);
  });

  it('syncs a product without a model number, and notes on its row why enrichment will fail', async () => {
    const productId = await world.createProduct({ title: 'Nameless Cup', variants: [{ price: '4.00' }] });
    const [row] = (await synced(productId, 1)) as [MapRow];
    // Shopify fills an empty vendor with the shop's name, so the brand is there; the model is not.
    expect(attribute(await world.catalogRecord(row.sku_id as string), 'productModel') ?? null).toBeNull();
    expect(row.notes.filter((n) => n.code === 'enrichment-will-fail').map((n) => n.attribute)).toContain(
      'productModel',
    );
  });
});
