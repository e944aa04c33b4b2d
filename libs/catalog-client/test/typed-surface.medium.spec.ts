import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { type CatalogSandboxHarness, startCatalogSandbox, type TestAccount } from '#testing/catalog-sandbox';
import { CatalogClient, CatalogClientError } from '../src/index.js';
import { drive, portalFor, product } from './sandbox-support.js';

// Every endpoint of the spec, through the client, against a real sandbox on a random port.
describe('CatalogClient: typed surface', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1));
  let sandbox: CatalogSandboxHarness;
  let account: TestAccount;
  let client: CatalogClient;
  const run = <T>(work: Promise<T>) => drive(clock, work);

  beforeAll(async () => {
    sandbox = await startCatalogSandbox({ clock });
    account = await sandbox.createAccount();
    client = new CatalogClient({
      baseUrl: sandbox.url,
      apiKey: account.apiKey,
      clock,
      rate: { ratePerSecond: 50, burst: 10 },
    });
  });
  afterAll(async () => {
    await client.close();
    await sandbox.close();
  });

  it('creates, reads, edits, searches and deletes products and variants', async () => {
    const parent = await run(client.createProduct(product('TEE-1')));
    expect(parent).toMatchObject({ supplierSku: 'TEE-1', parentSkuId: null });
    expect(parent.skuId).toMatch(/^[A-Z]{2}\d{8}$/);
    expect(await run(client.getProduct(parent.skuId))).toMatchObject({ skuId: parent.skuId });

    const edited = await run(
      client.updateProduct({
        product: { supplierSku: 'TEE-1', attributes: [{ key: 'description', value: 'Soft.' }] },
      }),
    );
    expect(edited.attributes.find((a) => a.key === 'description')?.value).toBe('Soft.');
    const bySku = await run(
      client.updateProductBySkuId(parent.skuId, {
        product: { supplierSku: 'TEE-1', attributes: [{ key: 'price', value: '19.90' }] },
      }),
    );
    expect(bySku.attributes.find((a) => a.key === 'price')?.value).toBe('19.90');

    const variant = await run(
      client.createVariant({
        parentSupplierSku: 'TEE-1',
        supplierSku: 'TEE-1-S',
        attributes: [{ key: 'size', value: 'S' }],
      }),
    );
    expect(variant).toMatchObject({
      supplierSku: 'TEE-1-S',
      parentSupplierSku: 'TEE-1',
      parentSkuId: parent.skuId,
    });
    expect(variant.inheritedAttributes.length).toBeGreaterThan(0);
    expect(await run(client.getVariant(variant.skuId))).toMatchObject({ parentSkuId: parent.skuId });
    const patched = await run(
      client.updateVariant(variant.skuId, {
        product: { supplierSku: 'TEE-1-S', attributes: [{ key: 'color', value: 'Black' }] },
      }),
    );
    expect(patched.attributes.find((a) => a.key === 'color')?.value).toBe('Black');

    const found = await run(client.searchProducts({ filter: { supplierSku: { $eq: 'TEE-1-S' } } }));
    expect(found.products.map((p) => p.skuId)).toEqual([variant.skuId]);
    expect(found.pagination).toMatchObject({ total: 1, hasMore: false });

    expect(await run(client.deleteVariant(variant.skuId))).toMatchObject({
      skuId: variant.skuId,
      status: 'deleted',
      confirmedBy: 'response',
    });
    expect(await run(client.deleteProduct(parent.skuId))).toMatchObject({
      status: 'deleted',
      confirmedBy: 'response',
    });
    const gone = await run(client.getProduct(parent.skuId).catch((e: unknown) => e));
    expect(gone).toBeInstanceOf(CatalogClientError);
    expect(gone).toMatchObject({ status: 404, errorCode: 404, code: 'product_not_found', retryable: false });
  });

  it('a DELETE answered 404 on its first attempt is an error, not "done"', async () => {
    const error = await run(client.deleteProduct('SK00000001').catch((e: unknown) => e));
    expect(error).toMatchObject({ status: 404, method: 'DELETE', path: '/v1/products/SK00000001' });
  });

  it('reads the taxonomy and the attribute definitions', async () => {
    const taxonomy = await run(client.getTaxonomy());
    expect(taxonomy.tree.map((n) => n.id)).toContain('apparel');
    const variantable = await run(client.searchAttributes({ filter: { option: { variantable: true } } }));
    expect(variantable.attributes.map((a) => a.key)).toEqual(expect.arrayContaining(['size', 'color']));
    expect(variantable.attributes.every((a) => a.option.variantable === true)).toBe(true);
    const one = await run(client.searchAttributes({ filter: { key: { $eq: 'size' } } }));
    expect(one.attributes).toHaveLength(1);
  });

  it('maps catalog errors to CatalogClientError with code, details and suggestion', async () => {
    const error = await run(
      client
        .createVariant({ parentSupplierSku: 'NOPE', supplierSku: 'NOPE-1', attributes: [] })
        .catch((e: unknown) => e),
    );
    expect(error).toBeInstanceOf(CatalogClientError);
    expect(error).toMatchObject({
      errorCode: 404,
      code: 'parent_not_found',
      status: 404,
      retryable: false,
      method: 'POST',
      path: '/v1/variants',
    });
    expect((error as CatalogClientError).suggestion).toEqual(expect.any(String));
    const bad = await run(
      client.searchProducts({ pagination: { limit: 501 } }).catch((e: unknown) => e as CatalogClientError),
    );
    expect(bad).toMatchObject({
      code: 'pagination_limit_exceeded',
      details: { requested_limit: 501, max_limit: 500 },
    });
  });

  it('a closed client refuses calls unsent', async () => {
    const fresh = await sandbox.createAccount();
    const closing = new CatalogClient({ baseUrl: sandbox.url, apiKey: fresh.apiKey, clock });
    await closing.close();
    const error = await closing.getTaxonomy().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'client_closed', retryable: false, status: null });
    expect(await portalFor(sandbox, fresh.id).requests()).toHaveLength(0);
  });

  it('iterates every product and attribute lazily, paging by 500', async () => {
    // The 501 records share one createdAt (the clock stands still). iterateProducts pages by
    // offset, which is exact only while ties keep their order across calls; the spec promises
    // no tie order and the sandbox shuffles ties by default, so this account asks for creation
    // order. Where ties matter, page by keyset instead (the connector's enrichment poller).
    const fresh = await sandbox.createAccount({ behaviour: { searchTieOrder: 'creation' } });
    const portal = portalFor(sandbox, fresh.id);
    const iterating = new CatalogClient({
      baseUrl: sandbox.url,
      apiKey: fresh.apiKey,
      clock,
      rate: { ratePerSecond: 1000, burst: 100 },
    });
    for (let i = 0; i < 501; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, 501 - i) }, (_, j) =>
          fresh.api.post('/v1/products', product(`BULK-${i + j}`)),
        ),
      );
    }
    await portal.clearRequests();
    const seen = new Set<string>();
    await run(
      (async () => {
        for await (const record of iterating.iterateProducts({
          filter: { supplierSku: { $regex: '^BULK-' } },
        })) {
          seen.add(record.skuId);
        }
      })(),
    );
    expect(seen.size).toBe(501);
    expect(await portal.requests({ path: '/v1/products/search' })).toHaveLength(2);

    const keys: string[] = [];
    await run(
      (async () => {
        for await (const attribute of iterating.iterateAttributes({}, { pageSize: 7 }))
          keys.push(attribute.key);
      })(),
    );
    const total = (await run(iterating.searchAttributes({}))).pagination.total;
    expect(keys).toHaveLength(total);
    expect(new Set(keys).size).toBe(total);
    expect(await portal.requests({ path: '/v1/attributes/search' })).toHaveLength(Math.ceil(total / 7) + 1);

    // Breaking out of the loop stops the calls.
    await portal.clearRequests();
    await run(
      (async () => {
        for await (const _ of iterating.iterateProducts({}, { pageSize: 10 })) break;
      })(),
    );
    expect(await portal.requests()).toHaveLength(1);
    await iterating.close();
  });
});
