import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogClient } from '#lib/catalog-client';
import {
  type CatalogSandboxHarness,
  productBody,
  startCatalogSandbox,
  type TestAccount,
} from '#testing/catalog-sandbox';
import { scanCatalog } from './catalog-keyset-scan.js';

const T0 = Date.UTC(2026, 0, 1);

// The keyset scan against the catalog sandbox, ties shuffled anew per request (the sandbox's
// default, asked for by name): 1,150 records, 700 of them with one createdAt, parents and
// variants; each record is seen exactly once, 500 per search, and a record created while the
// scan runs is seen too.
describe('scanning a catalog account by keyset', () => {
  let sandbox: CatalogSandboxHarness;
  let account: TestAccount;
  let client: CatalogClient;

  const records = (prefix: string, count: number, createdAt: number) =>
    Array.from({ length: count }, (_, i) => ({
      supplierSku: `${prefix}-${i}`,
      createdAt,
      updatedAt: createdAt,
      attributes: [
        { key: 'name', value: `${prefix} ${i}` },
        { key: 'brand', value: 'Acme' },
      ],
    }));

  beforeAll(async () => {
    sandbox = await startCatalogSandbox();
    account = await sandbox.createAccount({ behaviour: { searchTieOrder: 'shuffled' } });
    client = new CatalogClient({
      baseUrl: sandbox.url,
      apiKey: account.apiKey,
      rate: { ratePerSecond: 1_000, burst: 100 },
      retry: { maxAttempts: 1 },
    });
    const products = [
      ...records('early', 300, T0 + 1_000),
      ...records('tie', 700, T0 + 5_000),
      ...records('late', 100, T0 + 9_000),
      { supplierSku: 'late-0-v', parentSupplierSku: 'late-0', attributes: [{ key: 'gtin', value: '123' }] },
      ...Array.from({ length: 49 }, (_, i) => ({
        supplierSku: `late-1-v${i}`,
        parentSupplierSku: 'late-1',
        attributes: [{ key: 'gtin', value: String(4000 + i) }],
      })),
    ];
    const res = await sandbox.portal.post(`/portal/v1/accounts/${account.id}/products/bulk`, { products });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
  });

  afterAll(async () => {
    await client?.close();
    await sandbox?.close();
  });

  it('sees every record once, 500 per search, with ties across page boundaries', async () => {
    let searches = 0;
    const counting: Parameters<typeof scanCatalog>[0] = {
      searchProducts: (body, call) => {
        searches += 1;
        expect(body.pagination).toEqual({ offset: 0, limit: 500 });
        return client.searchProducts(body, call);
      },
    };
    const seen: string[] = [];
    let created = false;
    for await (const page of scanCatalog(counting)) {
      seen.push(...page.map((r) => r.supplierSku));
      if (!created) {
        // Created while the scan runs: it is newer than everything, so the scan ends with it.
        const res = await account.api.post('/v1/products', productBody('during-scan'));
        expect(res.status).toBe(200);
        created = true;
      }
    }
    expect(seen.length).toBe(1_151);
    expect(new Set(seen).size).toBe(1_151);
    expect(seen).toContain('during-scan');
    expect(seen).toContain('late-1-v48');
    expect(searches).toBe(3);
  });
});
