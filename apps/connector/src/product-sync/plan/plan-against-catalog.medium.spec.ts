import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CatalogClient } from '#lib/catalog-client';
import type { ProductRecord } from '#lib/catalog-contract';
// The harness moves behind the `#testing/catalog-sandbox` alias; until then, by path (tests only).
import { type CatalogSandboxHarness, startCatalogSandbox, type TestAccount } from '#testing/catalog-sandbox';
import { DEMO_MAPPING_TEXT, product, SHOP, variant } from '../../../test/support/sync-plan-inputs.js';
import type { CanonicalProduct } from '../../clients/shopify/canonical-product.js';
import { checkMappingAgainstCatalog } from '../../mapping/mapping-boot-check.js';
import { parseMappingFile } from '../../mapping/parse-mapping-file.js';
import type { ValidatedMapping } from '../../mapping/validated-mapping.js';
import { planDeletion } from './plan-deletion.js';
import { planSync } from './plan-sync.js';
import type { StoredRecord, SyncPlan } from './sync-plan.js';

/**
 * The planner's calls, made with the real client against a real catalog sandbox (faithful
 * defaults): every body is accepted, and the sandbox's request log holds exactly the calls
 * planned. `run` plays the sync job and the sku map.
 */
describe('planned calls against the catalog sandbox', () => {
  let sandbox: CatalogSandboxHarness;
  let account: TestAccount;
  let client: CatalogClient;
  let mapping: ValidatedMapping;

  beforeAll(async () => {
    sandbox = await startCatalogSandbox();
  });
  beforeEach(async () => {
    await client?.close();
    account = await sandbox.createAccount();
    client = new CatalogClient({
      baseUrl: sandbox.url,
      apiKey: account.apiKey,
      rate: { ratePerSecond: 100, burst: 20 },
    });
    const checked = await checkMappingAgainstCatalog(parseMappingFile(DEMO_MAPPING_TEXT), client);
    if (checked.status !== 'ready') throw new Error(`demo mapping not ready: ${checked.status}`);
    mapping = checked.mapping;
    await sandbox.portal.delete(`/portal/v1/accounts/${account.id}/requests`);
  });
  afterAll(async () => {
    await client?.close();
    await sandbox.close();
  });

  /** Makes the plan's calls in order, as the sync job would, and answers the new map rows. */
  async function run(plan: SyncPlan, stored: readonly StoredRecord[] = []): Promise<StoredRecord[]> {
    const skuIds = new Map(stored.map((r) => [r.shopifyVariantId, r.skuId]));
    for (const call of plan.calls) {
      const key = call.record.shopifyVariantId;
      if (call.kind === 'createProduct') skuIds.set(key, (await client.createProduct(call.body, call)).skuId);
      if (call.kind === 'createVariant') skuIds.set(key, (await client.createVariant(call.body, call)).skuId);
      if (call.kind === 'updateProduct') await client.updateProductBySkuId(call.skuId, call.body);
      if (call.kind === 'updateVariant') await client.updateVariant(call.skuId, call.body);
      if (call.kind === 'deleteVariant') await client.deleteVariant(call.skuId as string);
      if (call.kind === 'deleteProduct') await client.deleteProduct(call.skuId as string);
    }
    return plan.records
      .filter((r) => r.action !== 'delete')
      .map((r) => ({ ...r, skuId: skuIds.get(r.shopifyVariantId) ?? null }));
  }

  async function sync(p: CanonicalProduct, stored: readonly StoredRecord[] = []) {
    const plan = planSync({ shop: SHOP, product: p, mapping, stored });
    expect(plan.status).toBe('planned');
    return { plan, stored: await run(plan, stored) };
  }

  async function requests(): Promise<string[]> {
    const res = await sandbox.portal.get(`/portal/v1/accounts/${account.id}/requests`);
    const log = res.body.data.requests as Array<{
      method: string;
      path: string;
      status: number;
      seq: number;
    }>;
    await sandbox.portal.delete(`/portal/v1/accounts/${account.id}/requests`);
    return log.sort((a, b) => a.seq - b.seq).map((r) => `${r.method} ${r.path} ${r.status}`);
  }

  async function record(skuId: string | null): Promise<ProductRecord> {
    return client.getProduct(skuId as string);
  }

  const value = (r: ProductRecord, key: string) => r.attributes.find((a) => a.key === key)?.value ?? null;
  const own = (stored: StoredRecord[]) => stored.find((r) => r.shopifyVariantId === null) as StoredRecord;

  const tee = () =>
    product({
      productType: 'Shirts',
      variants: [
        variant({
          options: { Size: 'Small', Colour: 'navy blue' },
          barcode: '4006381333931',
          price: '20.00',
        }),
        variant({
          options: { Size: 'Medium', Colour: 'Navy' },
          barcode: '4006381333948',
          price: '22.00',
          compareAtPrice: '30.00',
        }),
      ],
    });

  it('creates the parent and its variants with the mapped values, then makes only the minimal calls', async () => {
    const p = tee();
    const created = await sync(p);
    expect(await requests()).toEqual([
      'POST /v1/products 200',
      'POST /v1/variants 200',
      'POST /v1/variants 200',
    ]);
    const parent = await record(own(created.stored).skuId);
    expect(
      parent.attributes.filter((a) => a.value !== null && a.key !== 'skuId' && a.key !== 'supplierSku'),
    ).toEqual([
      { key: 'name', value: 'Basic tee' },
      { key: 'brand', value: 'Acme' },
      { key: 'description', value: '<p>Soft cotton.</p>' },
      { key: 'productCategory', value: 'apparel-tops-shirts' },
      { key: 'productModel', value: '4006381333931' },
    ]);
    const medium = await client.getVariant(created.stored[2]?.skuId as string);
    expect(
      ['size', 'color', 'price', 'compareAtPrice', 'gtin', 'productModel'].map((k) => value(medium, k)),
    ).toEqual(['M', 'Navy', '22.00', '30.00', '4006381333948', '4006381333948']);
    await requests();

    const inventoryOnly = {
      ...p,
      updatedAt: '2026-03-01T00:00:00Z',
      variants: p.variants.map((v) => ({ ...v, updatedAt: '2026-03-01T00:00:00Z' })),
    };
    const idle = await sync(inventoryOnly, created.stored);
    expect(idle.plan.calls).toEqual([]);
    expect(await requests()).toEqual([]);

    const edited = {
      ...p,
      title: 'Better tee',
      variants: p.variants.map((v, i) => (i === 1 ? { ...v, price: '19.00' } : v)),
    };
    await sync(edited, idle.stored);
    expect(await requests()).toEqual([
      `PATCH /v1/products/${own(created.stored).skuId} 200`,
      `PATCH /v1/variants/${created.stored[2]?.skuId} 200`,
    ]);
    expect(value(await record(created.stored[2]?.skuId ?? null), 'price')).toBe('19.00');
  });

  it('a simple product that gains options, then loses them, keeps its record throughout', async () => {
    const simple = product({
      productType: 'Knives',
      variants: [variant({ barcode: '111', price: '50.00' })],
    });
    const first = await sync(simple);
    const skuId = own(first.stored).skuId;
    expect(value(await record(skuId), 'price')).toBe('50.00');
    await requests();

    const gained = product({
      ...simple,
      variants: [
        variant({ options: { Size: 'S' }, barcode: '111' }),
        variant({ options: { Size: 'M' }, barcode: '222' }),
      ],
    });
    const second = await sync(gained, first.stored);
    expect(await requests()).toEqual([
      `PATCH /v1/products/${skuId} 200`,
      'POST /v1/variants 200',
      'POST /v1/variants 200',
    ]);
    const parent = await record(skuId);
    expect([value(parent, 'price'), value(parent, 'gtin'), value(parent, 'productModel')]).toEqual([
      null,
      null,
      '111',
    ]);
    expect(value(await client.getVariant(second.stored[2]?.skuId as string), 'price')).toBe('19.90');

    const lost = product({ ...simple, variants: [variant({ barcode: '333', price: '45.00' })] });
    const third = await sync(lost, second.stored);
    const log = await requests();
    expect(log.filter((l) => l.startsWith('DELETE'))).toHaveLength(2);
    expect(log.at(-1)).toBe(`PATCH /v1/products/${skuId} 200`);
    expect(own(third.stored).skuId).toBe(skuId);
    const back = await record(skuId);
    expect([value(back, 'price'), value(back, 'gtin'), value(back, 'productModel')]).toEqual([
      '45.00',
      '333',
      '333',
    ]);
  });

  it('an unknown option value is a recorded gap, never a refused call', async () => {
    const p = product({
      variants: [
        variant({ options: { Size: 'S', Color: 'Teal' } }),
        variant({ options: { Size: 'Huge', Color: 'Black' } }),
      ],
    });
    const { plan } = await sync(p);
    expect(plan.gaps.map((g) => `${g.entry}=${g.values.join()}`)).toEqual([
      'variant.options.Color=Teal',
      'variant.options.Size=Huge',
    ]);
    expect((await requests()).every((line) => line.endsWith(' 200'))).toBe(true);
  });

  it('prices carry the shop currency when the mapping says so', async () => {
    const checked = await checkMappingAgainstCatalog(
      parseMappingFile(
        DEMO_MAPPING_TEXT.replace('price: price ', 'price: { attribute: price, currency: shop } '),
      ),
      client,
    );
    if (checked.status !== 'ready') throw new Error('not ready');
    const plan = planSync({
      shop: { ...SHOP, currencyCode: 'CHF' },
      product: product(),
      mapping: checked.mapping,
      stored: [],
    });
    const stored = await run(plan);
    expect(value(await record(own(stored).skuId), 'price')).toBe('19.90 CHF');
  });

  it('deletes the variants, then the product', async () => {
    const { stored } = await sync(tee());
    await requests();
    await run(planDeletion(stored), stored);
    expect((await requests()).map((l) => l.split(' ').slice(0, 1).join())).toEqual([
      'DELETE',
      'DELETE',
      'DELETE',
    ]);
    await expect(client.getProduct(own(stored).skuId as string)).rejects.toMatchObject({ status: 404 });
  });
});
