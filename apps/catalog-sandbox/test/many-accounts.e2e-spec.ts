import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiFor, type CatalogSandboxHarness, startCatalogSandbox } from '#testing/catalog-sandbox';

// The multi-shop bench and tests give each of 200 shops its own catalog account, made at run time.
describe('catalog sandbox: 200 accounts made at run time', () => {
  let sandbox: CatalogSandboxHarness;
  beforeAll(async () => {
    sandbox = await startCatalogSandbox();
  });
  afterAll(() => sandbox.close());

  it('creates them through the portal API, each answering its own key and rate limit', async () => {
    const keys: string[] = [];
    for (let i = 0; i < 200; i++) {
      const created = await sandbox.portal.post('/portal/v1/accounts', { id: `tenant-${i}` });
      expect(created.status).toBe(200);
      keys.push(created.body.data.apiKeys[0].key);
    }
    const listed = await sandbox.portal.get('/portal/v1/accounts');
    const ids = (listed.body.data.accounts as Array<{ id: string }>).map((a) => a.id);
    expect(ids).toEqual(expect.arrayContaining(keys.map((_, i) => `tenant-${i}`)));
    expect((await sandbox.portal.get('/portal/v1/accounts/tenant-137')).body.data.id).toBe('tenant-137');
    const limited = await sandbox.portal.patch('/portal/v1/accounts/tenant-137/rate-limit', {
      ratePerSecond: 100,
      burst: 100,
    });
    expect(limited.body.data).toMatchObject({ ratePerSecond: 100, burst: 100 });
    expect(
      (await sandbox.portal.get('/portal/v1/accounts/tenant-0/rate-limit')).body.data.ratePerSecond,
    ).not.toBe(100);
    for (const i of [0, 137, 199]) {
      expect((await apiFor(sandbox.url, keys[i] as string).get('/v1/taxonomies')).status).toBe(200);
    }
    const log = await sandbox.portal.get('/portal/v1/accounts/tenant-137/requests');
    expect(log.body.data.requests).toHaveLength(1);
    expect(
      (await sandbox.portal.get('/portal/v1/accounts/tenant-0/requests')).body.data.requests,
    ).toHaveLength(1);
  });
});
