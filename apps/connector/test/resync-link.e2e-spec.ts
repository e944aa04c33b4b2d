import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '#testing/catalog-sandbox';
import { call } from './support/admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { attribute, type CatalogRecord, writes } from './support/sync-world.js';
import { type TestShop, testShop } from './support/test-shop.js';

const DEMO_MAPPING = fileURLToPath(new URL('../mappings/demo.yaml', import.meta.url));

interface LinkReport {
  dryRun: boolean;
  catalog: { records: number; searches: number };
  shopifyProducts: number;
  shopifyRead: string;
  counts: { linked: number; created: number; updated: number; deleted: number; conflicts: number };
  linked: Array<{ productId: string; records: Array<{ kind: string; skuId: string; supplierSku: string }> }>;
  created: string[];
  resyncRunId: string | null;
}

// The first run against a catalog another tool filled: the connector links the shop's products
// to the records already there (by SKU against supplierSku, by barcode against gtin) instead of
// creating duplicates, and a dry run says so without writing anything. No webhooks here: the
// connector is not subscribed, so only linking and the resync it starts touch the catalog.
describe('linking a pre-filled catalog', () => {
  let sandboxes: Sandboxes;
  let shop: TestShop;
  let account: TestAccount;
  let harness: ConnectorHarness;
  let dir: string;
  const token = `admin-${randomBytes(16).toString('hex')}`;
  const ids = { apron: '', scarf: '', shirt: '' };
  let shirtVariants: string[] = [];
  const fillers: string[] = [];

  const createProduct = async (product: Record<string, unknown>) => {
    const created = await sandboxes.merchant(shop, 'POST', 'products.json', { product });
    expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
    return created.body.product as { id: number; variants: Array<{ id: number }> };
  };
  const admin = <T>(method: string, path: string) => call<T>(harness.url, method, path, token);
  const bySupplierSku = async (
    supplierSku: string,
  ): Promise<Array<CatalogRecord & { parentSkuId: string | null }>> => {
    const response = await account.api.post('/v1/products/search', {
      filter: { supplierSku: { $eq: supplierSku } },
      pagination: { offset: 0, limit: 100 },
    });
    return response.body.data.products;
  };
  const mapRows = async (productId: string) =>
    (
      await harness.db.query<{
        shopify_variant_id: string | null;
        supplier_sku: string;
        sku_id: string;
        state: string;
      }>(
        `SELECT shopify_variant_id::text, supplier_sku, sku_id, state FROM "${harness.schema}".sku_map
          WHERE shop = $1 AND shopify_product_id = $2 ORDER BY shopify_variant_id NULLS FIRST`,
        [shop.domain, productId],
      )
    ).rows;

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    shop = testShop();
    await sandboxes.addShop(shop);
    account = await sandboxes.account();
    const apron = await createProduct({
      title: 'Linen Apron',
      vendor: 'Acme',
      variants: [{ sku: 'APRON-1', price: '20.00' }],
    });
    const scarf = await createProduct({
      title: 'Wool Scarf',
      vendor: 'Acme',
      variants: [{ sku: 'SCARF-9', price: '25.00' }],
    });
    const shirt = await createProduct({
      title: 'Oxford Shirt',
      vendor: 'Acme',
      product_type: 'Shirts',
      options: [{ name: 'Size' }],
      variants: [
        { option1: 'Small', sku: 'OX-S', barcode: '4006381333931', price: '40.00' },
        { option1: 'Medium', sku: 'OX-M', barcode: '4006381333948', price: '40.00' },
        { option1: 'Large', sku: 'OX-L', barcode: '4006381333955', price: '42.00' },
      ],
    });
    ids.apron = String(apron.id);
    ids.scarf = String(scarf.id);
    ids.shirt = String(shirt.id);
    shirtVariants = shirt.variants.map((v) => String(v.id));
    // More products than one Admin page of the link's walk (8) holds; no catalog record has them.
    for (let i = 0; i < 7; i++)
      fillers.push(String((await createProduct({ title: `Filler ${i}`, vendor: 'Acme' })).id));

    // What another tool put there: its own supplierSkus, the apron under its Shopify SKU, the
    // shirt's variants carrying their barcodes as gtin; and 600 unrelated records.
    const products = [
      {
        supplierSku: 'APRON-1',
        attributes: [
          { key: 'name', value: 'Apron (ERP)' },
          { key: 'brand', value: 'Acme' },
        ],
      },
      {
        supplierSku: 'ERP-OX',
        attributes: [
          { key: 'name', value: 'Oxford (ERP)' },
          { key: 'brand', value: 'Acme' },
        ],
      },
      {
        supplierSku: 'ERP-OX-S',
        parentSupplierSku: 'ERP-OX',
        attributes: [
          { key: 'size', value: 'S' },
          { key: 'gtin', value: '4006381333931' },
        ],
      },
      {
        supplierSku: 'ERP-OX-M',
        parentSupplierSku: 'ERP-OX',
        attributes: [
          { key: 'size', value: 'M' },
          { key: 'gtin', value: '4006381333948' },
        ],
      },
      ...Array.from({ length: 600 }, (_, i) => ({
        supplierSku: `OTHER-${i}`,
        attributes: [
          { key: 'name', value: `Other ${i}` },
          { key: 'brand', value: 'Elsewhere' },
        ],
      })),
    ];
    const loaded = await sandboxes.catalog.portal.post(`/portal/v1/accounts/${account.id}/products/bulk`, {
      products,
    });
    expect(loaded.status, JSON.stringify(loaded.body).slice(0, 300)).toBe(200);

    dir = await mkdtemp(join(tmpdir(), 'connector-link-'));
    const mappingFile = join(dir, 'mapping.yaml');
    await writeFile(mappingFile, (await readFile(DEMO_MAPPING, 'utf8')).replace(/^shop: .*$/m, ''));
    harness = await startConnector({
      shops: [shop],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: account.apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      env: {
        CONNECTOR_ADMIN_TOKEN: token,
        [`CONNECTOR_SHOP_${shop.key}_MAPPING_FILE`]: mappingFile,
        CONNECTOR_CATALOG_RATE_PER_SECOND: '50',
        // Ten products: linking (and the resync after it) read the shop through a bulk query.
        CONNECTOR_BULK_THRESHOLD: '5',
      },
    });
  });
  afterAll(async () => {
    await harness?.close();
    await sandboxes?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('reports on a dry run what would be linked and created, and writes nothing', async () => {
    const since = Date.now();
    const bySku = await admin<LinkReport>('POST', `/admin/link?shop=${shop.domain}&dryRun=true`);
    expect(bySku.status, bySku.text).toBe(200);
    expect(bySku.body).toMatchObject({
      dryRun: true,
      shopifyProducts: 10,
      shopifyRead: 'bulk',
      catalog: { records: 604, searches: 2 }, // 500 per search: not one search per product
      counts: { linked: 1, created: 9, updated: 0, deleted: 0, conflicts: 0 },
      resyncRunId: null,
    });
    expect(bySku.body.linked).toEqual([
      {
        productId: ids.apron,
        records: [expect.objectContaining({ kind: 'simple', supplierSku: 'APRON-1' })],
      },
    ]);
    expect(bySku.body.created.sort()).toEqual([ids.scarf, ids.shirt, ...fillers].sort());

    const byBarcode = await admin<LinkReport>(
      'POST',
      `/admin/link?shop=${shop.domain}&dryRun=true&match=barcode:gtin`,
    );
    expect(byBarcode.body.counts).toEqual({ linked: 1, created: 9, updated: 0, deleted: 0, conflicts: 0 });
    expect(byBarcode.body.linked[0]?.records.map((r) => [r.kind, r.supplierSku])).toEqual([
      ['parent', 'ERP-OX'],
      ['variant', 'ERP-OX-S'],
      ['variant', 'ERP-OX-M'],
    ]);

    for (const bad of ['match=sku:name', 'dryRun=yes', 'shop=']) {
      const refused = await admin<{ error: { code: string } }>(
        'POST',
        `/admin/link?shop=${shop.domain}&${bad}`,
      );
      expect(refused.status, bad).toBe(400);
    }
    expect((await admin('POST', '/admin/link?shop=unknown.myshopify.com&dryRun=true')).status).toBe(404);

    // Nothing written: no map rows, no run, no sync, no catalog write; 2 product searches a link.
    const q = `"${harness.schema}"`;
    for (const table of ['sku_map', 'resync_runs', 'sync_records']) {
      const { rows } = await harness.db.query(`SELECT count(*)::int AS n FROM ${q}.${table}`);
      expect(rows[0], table).toEqual({ n: 0 });
    }
    const calls = await account.controls.requests({ since });
    expect(writes(calls)).toEqual([]);
    expect(calls.filter((c) => c.path === '/v1/products/search')).toHaveLength(4);
  });

  it('links by SKU and by barcode instead of duplicating; the resync creates only what matched nothing', async () => {
    const since = Date.now();
    const first = await admin<LinkReport>('POST', `/admin/link?shop=${shop.domain}&resync=false`);
    expect(first.body.counts).toMatchObject({ linked: 1, created: 9 });
    expect(first.body.resyncRunId).toBeNull();
    const apronRecord = (await bySupplierSku('APRON-1'))[0] as CatalogRecord;
    expect(await mapRows(ids.apron)).toEqual([
      { shopify_variant_id: null, supplier_sku: 'APRON-1', sku_id: apronRecord.skuId, state: 'live' },
    ]);

    const second = await admin<LinkReport>('POST', `/admin/link?shop=${shop.domain}&match=barcode:gtin`);
    expect(second.body.counts).toMatchObject({ linked: 1, updated: 1, created: 8 });
    const runId = second.body.resyncRunId as string;
    await eventually(
      async () => (await admin<{ state: string }>('GET', `/admin/resync/${runId}`)).body.state === 'done',
      30_000,
    );

    // The apron: one record, the other tool's, now with the shop's title.
    const aprons = await bySupplierSku('APRON-1');
    expect(aprons).toHaveLength(1);
    expect(attribute(aprons[0] as CatalogRecord, 'name')).toBe('Linen Apron');
    // The shirt: the other tool's parent and two variants kept, the third variant created under it.
    const [parent] = await bySupplierSku('ERP-OX');
    expect(attribute(parent as CatalogRecord, 'name')).toBe('Oxford Shirt');
    const shirtRows = await mapRows(ids.shirt);
    expect(shirtRows.map((r) => [r.shopify_variant_id, r.supplier_sku, r.state])).toEqual([
      [null, 'ERP-OX', 'live'],
      [shirtVariants[0], 'ERP-OX-S', 'live'],
      [shirtVariants[1], 'ERP-OX-M', 'live'],
      [shirtVariants[2], expect.stringMatching(/:variant:/), 'live'],
    ]);
    expect(shirtRows[0]?.sku_id).toBe(parent?.skuId);
    const large = (await bySupplierSku(shirtRows[3]?.supplier_sku as string))[0];
    expect(large?.parentSkuId).toBe(parent?.skuId);
    // The scarf matched nothing: created, once.
    const scarfRows = await mapRows(ids.scarf);
    expect(scarfRows).toHaveLength(1);
    expect(await bySupplierSku(scarfRows[0]?.supplier_sku as string)).toHaveLength(1);

    const made = writes(await account.controls.requests({ since })).filter((w) => w.startsWith('POST'));
    expect(made.sort()).toEqual([...Array(8).fill('POST /v1/products'), 'POST /v1/variants']);
    const { rows } = await harness.db.query(
      `SELECT count(*)::int AS n FROM "${harness.schema}".sku_map WHERE shop = $1`,
      [shop.domain],
    );
    expect(rows[0]).toEqual({ n: 13 });
  });
});
