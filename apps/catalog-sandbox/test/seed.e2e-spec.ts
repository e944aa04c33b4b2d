import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiFor,
  type CatalogSandboxHarness,
  productBody,
  startCatalogSandbox,
} from '#testing/catalog-sandbox';
import { DEFAULT_SEED_PATH } from '../src/config/catalog-sandbox.config.js';

describe('catalog sandbox: the seed file loaded at boot', () => {
  let sandbox: CatalogSandboxHarness;
  beforeAll(async () => {
    // Tests run from the repository root, where the default seed path is relative to.
    sandbox = await startCatalogSandbox({ env: { CATALOG_SANDBOX_SEED: DEFAULT_SEED_PATH } });
  });
  afterAll(() => sandbox.close());

  it('creates the demo account with a full-access key and a read-only key', async () => {
    const full = apiFor(sandbox.url, 'demo-api-key-0001');
    const created = await full.post(
      '/v1/products',
      productBody('seeded-1', [{ key: 'productCategory', value: 'apparel-tops-tshirts' }]),
    );
    expect(created.status).toBe(200);
    const readOnly = apiFor(sandbox.url, 'demo-readonly-key-0002');
    expect((await readOnly.get(`/v1/products/${created.body.data.skuId}`)).status).toBe(200);
    expect((await readOnly.post('/v1/products', productBody('seeded-2'))).status).toBe(403);
  });

  it('refuses to boot on a broken seed, naming the file', async () => {
    await expect(
      startCatalogSandbox({ env: { CATALOG_SANDBOX_SEED: 'apps/catalog-sandbox/README.md' } }),
    ).rejects.toThrow(/seed file apps\/catalog-sandbox\/README.md/);
  });
});
