import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { type CatalogSandboxHarness, startCatalogSandbox, type TestAccount } from '#testing/catalog-sandbox';

const T0 = Date.UTC(2026, 0, 1);
const SEARCH = '/v1/products/search';

// The spec promises no order among records with equal sort keys. The sandbox shuffles them per
// request by default (seeded), and keeps creation order when `searchTieOrder` is `creation`.
describe('catalog sandbox: order of search ties', () => {
  const clock = new ManualClock(T0);
  let sandbox: CatalogSandboxHarness;

  beforeAll(async () => {
    sandbox = await startCatalogSandbox({ clock });
  });
  afterAll(() => sandbox.close());

  /** 40 records finished at one completedAt, 5 at a later one, 5 never enriched, via bulk fixtures. */
  async function fixture(account: TestAccount): Promise<string[]> {
    const products = Array.from({ length: 50 }, (_, i) => ({
      supplierSku: `tie-${String(i).padStart(2, '0')}`,
      createdAt: T0,
      attributes: [
        { key: 'name', value: `Item ${i}` },
        { key: 'brand', value: 'Acme' },
      ],
      ...(i < 45
        ? { dataEnrichment: { status: 'FINISHED', completedAt: i < 40 ? T0 + 1_000 : T0 + 2_000 } }
        : {}),
    }));
    const res = await sandbox.portal.post(`/portal/v1/accounts/${account.id}/products/bulk`, { products });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    return products.map((p) => p.supplierSku);
  }

  async function order(account: TestAccount, body: Record<string, unknown>): Promise<string[]> {
    const res = await account.api.post(SEARCH, { pagination: { limit: 500 }, ...body });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    return res.body.data.products.map((p: { supplierSku: string }) => p.supplierSku);
  }

  const byCompletedAt = { sort: { field: 'dataEnrichment.completedAt', order: 'ASC' } };

  it('shuffles ties anew on every request by default, keeping the sort between different keys', async () => {
    const account = await sandbox.createAccount();
    const skus = await fixture(account);
    const first = await order(account, byCompletedAt);
    const second = await order(account, byCompletedAt);
    for (const result of [first, second]) {
      expect(result.slice(0, 40).sort()).toEqual(skus.slice(0, 40));
      expect(result.slice(40, 45).sort()).toEqual(skus.slice(40, 45));
      // Records without completedAt come last, and tie among themselves too.
      expect(result.slice(45).sort()).toEqual(skus.slice(45));
    }
    expect(first.slice(0, 40)).not.toEqual(skus.slice(0, 40));
    expect(second.slice(0, 40)).not.toEqual(first.slice(0, 40));
    // createdAt is one value for all 50: the default sort is one big tie.
    expect(await order(account, {})).not.toEqual(await order(account, {}));
  });

  it('breaks offset paging through a tie group: pages overlap and records go missing', async () => {
    const account = await sandbox.createAccount();
    const skus = await fixture(account);
    const seen: string[] = [];
    for (let offset = 0; offset < 40; offset += 10) {
      seen.push(
        ...(await order(account, {
          filter: { dataEnrichment: { completedAt: { $eq: T0 + 1_000 } } },
          ...byCompletedAt,
          pagination: { limit: 10, offset },
        })),
      );
    }
    expect(seen).toHaveLength(40);
    expect(new Set(seen).size).toBeLessThan(40);
    expect(skus.slice(0, 40).filter((s) => !seen.includes(s)).length).toBeGreaterThan(0);
  });

  it('repeats the same shuffles for the same seed, account and request sequence', async () => {
    const runs: string[][][] = [];
    for (const _ of [1, 2]) {
      const own = await startCatalogSandbox({ clock, env: { CATALOG_SANDBOX_SEARCH_TIE_SEED: '42' } });
      try {
        const account = await own.createAccount({ id: 'seeded' });
        const products = Array.from({ length: 20 }, (_, i) => ({
          supplierSku: `s-${i}`,
          createdAt: T0,
          attributes: [
            { key: 'name', value: `Item ${i}` },
            { key: 'brand', value: 'Acme' },
          ],
        }));
        expect((await own.portal.post('/portal/v1/accounts/seeded/products/bulk', { products })).status).toBe(
          200,
        );
        runs.push([await order(account, {}), await order(account, {})]);
      } finally {
        await own.close();
      }
    }
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[0]?.[0]).not.toEqual(runs[0]?.[1]);
  });

  it('keeps creation order for ties with searchTieOrder: creation (per account, or PATCH .../behaviour)', async () => {
    const account = await sandbox.createAccount({ behaviour: { searchTieOrder: 'creation' } });
    const skus = await fixture(account);
    const expected = skus.slice(0, 40);
    expect((await order(account, byCompletedAt)).slice(0, 40)).toEqual(expected);
    expect((await order(account, byCompletedAt)).slice(0, 40)).toEqual(expected);

    const other = await sandbox.createAccount();
    await fixture(other);
    const patched = await sandbox.portal.patch(`/portal/v1/accounts/${other.id}/behaviour`, {
      searchTieOrder: 'creation',
    });
    expect(patched.body.data.behaviour.searchTieOrder).toBe('creation');
    expect((await order(other, byCompletedAt)).slice(0, 40)).toEqual(expected);
    const refused = await sandbox.portal.patch(`/portal/v1/accounts/${other.id}/behaviour`, {
      searchTieOrder: 'random',
    });
    expect(refused.status).toBe(400);
  });
});
