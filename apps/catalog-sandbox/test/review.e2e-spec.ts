import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import {
  attr,
  type CatalogSandboxHarness,
  productBody,
  startCatalogSandbox,
  type TestAccount,
} from '#testing/catalog-sandbox';

type Entry = { key: string; value: unknown; blame?: string; sources?: unknown[] };
type Product = { skuId: string; updatedAt: number; attributes: Entry[] };

describe('catalog sandbox: review and user edits of enriched values', () => {
  const clock = new ManualClock(Date.UTC(2026, 4, 1));
  let sandbox: CatalogSandboxHarness;
  let account: TestAccount;
  beforeAll(async () => {
    sandbox = await startCatalogSandbox({ clock });
    account = await sandbox.createAccount();
  });
  afterAll(() => sandbox.close());

  const portalProduct = (skuId: string, acct = account) => `/portal/v1/accounts/${acct.id}/products/${skuId}`;
  const read = async (skuId: string, acct = account): Promise<Product> =>
    (await acct.api.get(`/v1/products/${skuId}`)).body.data;

  /** A T-shirt taken through a manual enrichment run to FINISHED. */
  async function enriched(supplierSku: string, acct = account): Promise<Product> {
    const res = await acct.api.post(
      '/v1/products',
      productBody(supplierSku, [
        { key: 'productCategory', value: 'apparel-tops-tshirts' },
        { key: 'productModel', value: 'AT-1000' },
      ]),
    );
    const skuId = res.body.data.skuId as string;
    const runs = `/portal/v1/accounts/${acct.id}/enrichment/runs`;
    const run = await sandbox.portal.post(runs, { skuIds: [skuId], mode: 'manual' });
    await sandbox.portal.post(`${runs}/${run.body.data.runId}/step`);
    const done = await sandbox.portal.post(`${runs}/${run.body.data.runId}/step`);
    expect(done.body.data.items[0].status).toBe('FINISHED');
    return read(skuId, acct);
  }

  it('sets blame on approved and rejected keys, keeps their values and leaves updatedAt alone', async () => {
    const before = await enriched('rev-1');
    clock.set(clock.now() + 5_000);
    const res = await sandbox.portal.post(`${portalProduct(before.skuId)}/review`, {
      approve: ['aiTitle', 'material'],
      reject: ['seoTitle'],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = await read(before.skuId);
    expect(res.body.data).toEqual(after);
    for (const [key, blame] of [
      ['aiTitle', 'ENRICHMENT_APPROVED'],
      ['material', 'ENRICHMENT_APPROVED'],
      ['seoTitle', 'ENRICHMENT_REJECTED'],
    ] as const) {
      expect(attr(after, key)).toEqual({ key, value: attr(before, key)?.value, blame });
    }
    expect(attr(after, 'seoDescription')).toEqual(attr(before, 'seoDescription'));
    expect(after.updatedAt).toBe(before.updatedAt);
  });

  it('changes updatedAt on review when reviewTouchesUpdatedAt is on', async () => {
    const touchy = await sandbox.createAccount({ behaviour: { reviewTouchesUpdatedAt: true } });
    const before = await enriched('rev-touch', touchy);
    clock.set(clock.now() + 7_000);
    await sandbox.portal.post(`${portalProduct(before.skuId, touchy)}/review`, { approve: ['aiTitle'] });
    expect((await read(before.skuId, touchy)).updatedAt).toBe(clock.now());
  });

  it('never re-enriches approved or rejected attributes', async () => {
    const before = await enriched('rev-rerun');
    await sandbox.portal.post(`${portalProduct(before.skuId)}/review`, {
      approve: ['aiTitle'],
      reject: ['fit'],
    });
    const runs = `/portal/v1/accounts/${account.id}/enrichment/runs`;
    const run = await sandbox.portal.post(runs, { skuIds: [before.skuId], mode: 'manual' });
    await sandbox.portal.post(`${runs}/${run.body.data.runId}/step`);
    const done = (await sandbox.portal.post(`${runs}/${run.body.data.runId}/step`)).body.data;
    expect(done.items[0].filled).not.toContain('aiTitle');
    expect(done.items[0].filled).not.toContain('fit');
    expect(done.items[0].filled).toContain('seoTitle');
    const after = await read(before.skuId);
    expect(attr(after, 'aiTitle')).toMatchObject({ blame: 'ENRICHMENT_APPROVED' });
    expect(attr(after, 'fit')).toMatchObject({
      blame: 'ENRICHMENT_REJECTED',
      value: attr(before, 'fit')?.value,
    });
  });

  it('refuses to review values that did not come from enrichment, unknown keys and bad bodies', async () => {
    const product = await enriched('rev-bad');
    await account.api.patch(`/v1/products/${product.skuId}`, {
      product: { attributes: [{ key: 'aiTitle', value: 'Mine' }] },
    });
    const review = (body: unknown, skuId = product.skuId) =>
      sandbox.portal.post(`${portalProduct(skuId)}/review`, body);
    const mine = await review({ approve: ['aiTitle', 'material', 'releaseDate'] });
    expect(mine.status).toBe(400);
    expect(mine.body.error).toMatchObject({
      code: 'validation_error',
      details: { keys: ['aiTitle', 'releaseDate'] },
    });
    expect((attr(await read(product.skuId), 'material') as Entry).blame).toBe('ENRICHMENT');
    const unknown = await review({ reject: ['nope'] });
    expect(unknown.body.error).toMatchObject({ code: 'unknown_attribute', attribute_key: 'nope' });
    expect((await review({})).status).toBe(400);
    expect((await review({ approve: ['material'], reject: ['material'] })).status).toBe(400);
    expect((await review({ approve: 'material' })).status).toBe(400);
    expect((await review({ approve: ['material'] }, 'SK99999999')).status).toBe(404);
  });

  it('lets a reviewer change their mind: approved to rejected', async () => {
    const product = await enriched('rev-mind');
    await sandbox.portal.post(`${portalProduct(product.skuId)}/review`, { approve: ['occasions'] });
    const res = await sandbox.portal.post(`${portalProduct(product.skuId)}/review`, {
      reject: ['occasions'],
    });
    expect(attr(res.body.data, 'occasions')).toEqual({
      key: 'occasions',
      value: attr(product, 'occasions')?.value,
      blame: 'ENRICHMENT_REJECTED',
    });
  });

  it('makes a value the user’s when edited through /v1: no blame, no sources', async () => {
    const product = await enriched('edit-api');
    expect(attr(product, 'material')).toMatchObject({ blame: 'ENRICHMENT', sources: expect.any(Array) });
    const res = await account.api.patch(`/v1/products/${product.skuId}`, {
      product: { attributes: [{ key: 'material', value: attr(product, 'material')?.value }] },
    });
    expect(attr(res.body.data, 'material')).toEqual({
      key: 'material',
      value: attr(product, 'material')?.value,
    });
  });

  it('edits through the portal with the /v1 rules, without rate limit, and makes the value the user’s', async () => {
    const product = await enriched('edit-portal');
    await sandbox.portal.patch(`/portal/v1/accounts/${account.id}/rate-limit`, {
      enabled: true,
      burst: 1,
      ratePerSecond: 0.01,
    });
    try {
      await account.api.get(`/v1/products/${product.skuId}`);
      expect((await account.api.get(`/v1/products/${product.skuId}`)).status).toBe(429);
      clock.set(clock.now() + 3_000);
      const res = await sandbox.portal.patch(portalProduct(product.skuId), {
        attributes: [
          { key: 'aiTitle', value: 'Edited in the portal' },
          { key: 'occasions', value: ['Casual'] },
        ],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(attr(res.body.data, 'aiTitle')).toEqual({ key: 'aiTitle', value: 'Edited in the portal' });
      expect(attr(res.body.data, 'occasions')).toEqual({ key: 'occasions', value: ['Casual'] });
      expect((attr(res.body.data, 'seoTitle') as Entry).blame).toBe('ENRICHMENT');
      expect(res.body.data.updatedAt).toBe(clock.now());
      const invalid = await sandbox.portal.patch(portalProduct(product.skuId), {
        attributes: [{ key: 'occasions', value: ['Party'] }],
      });
      expect(invalid.body.error).toMatchObject({
        code: 'invalid_attribute_value',
        attribute_key: 'occasions',
      });
      expect((await sandbox.portal.patch(portalProduct(product.skuId), { attributes: 'x' })).status).toBe(
        400,
      );
      expect((await sandbox.portal.patch(portalProduct(product.skuId), {})).status).toBe(400);
      expect((await sandbox.portal.patch(portalProduct('SK99999999'), { attributes: [] })).status).toBe(404);
      const portalRead = await sandbox.portal.get(portalProduct(product.skuId));
      expect(attr(portalRead.body.data, 'aiTitle')?.value).toBe('Edited in the portal');
    } finally {
      await sandbox.portal.patch(`/portal/v1/accounts/${account.id}/rate-limit`, { enabled: false });
    }
  });
});
