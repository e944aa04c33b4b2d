import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shopKey } from '../src/platform/config/shop-config.js';
import { call } from './support/admin-client.js';
import { type ConnectorHarness, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { type TestShop, testShop } from './support/test-shop.js';

const ADMIN_TOKEN = `shop-mode-${randomBytes(8).toString('hex')}`;

interface ShopEntry {
  shop: string;
  mode: string;
  modePinned: boolean;
}

// Issue 31, step 1: a shop is live or shadow. A configured shop is live unless its
// configuration pins a mode; the operator switches an unpinned one through the admin API, and
// the mode is kept in `shop_modes` (another connector on the same tables sees it).
describe('shop modes', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  let free: TestShop;
  let pinned: TestShop;

  const admin = <T>(method: string, path: string, body?: unknown) =>
    call<T>(harness.url, method, path, ADMIN_TOKEN, body);
  const entry = async (domain: string) =>
    (await admin<{ shops: ShopEntry[] }>('GET', '/admin/shops')).body.shops.find((s) => s.shop === domain);

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    free = testShop();
    pinned = testShop();
    await sandboxes.addShop(free);
    await sandboxes.addShop(pinned);
    harness = await startConnector({
      shops: [free, pinned],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: (await sandboxes.account()).apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      env: {
        CONNECTOR_ADMIN_TOKEN: ADMIN_TOKEN,
        CONNECTOR_MEDIA_ENABLED: 'false',
        [`CONNECTOR_SHOP_${shopKey(pinned.domain)}_MODE`]: 'shadow',
      },
    });
  });
  afterAll(async () => {
    await harness?.close();
    await sandboxes?.close();
  });

  it('starts configured shops live unless pinned, and switches an unpinned one, persisted', async () => {
    expect(await entry(free.domain)).toMatchObject({ mode: 'live', modePinned: false });
    expect(await entry(pinned.domain)).toMatchObject({ mode: 'shadow', modePinned: true });

    const toShadow = await admin<ShopEntry>('PUT', `/admin/shops/${free.domain.toUpperCase()}/mode`, {
      mode: 'shadow',
    });
    expect(toShadow.status, toShadow.text).toBe(200);
    expect(toShadow.body).toMatchObject({ shop: free.domain, mode: 'shadow', modePinned: false });
    const { rows } = await harness.db.query(`SELECT shop, mode FROM "${harness.schema}".shop_modes`);
    expect(rows).toEqual([{ shop: free.domain, mode: 'shadow' }]);
    expect(await entry(free.domain)).toMatchObject({ mode: 'shadow' });

    const back = await admin<ShopEntry>('PUT', `/admin/shops/${free.domain}/mode`, { mode: 'live' });
    expect(back.body).toMatchObject({ mode: 'live' });
  });

  it('refuses a pinned shop, an unknown shop and an unknown mode in the error shape', async () => {
    const refused = await admin<{ error: { code: string; message: string } }>(
      'PUT',
      `/admin/shops/${pinned.domain}/mode`,
      { mode: 'live' },
    );
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('mode_pinned');
    expect(refused.body.error.message).toContain(`CONNECTOR_SHOP_${shopKey(pinned.domain)}_MODE`);
    expect(await entry(pinned.domain)).toMatchObject({ mode: 'shadow', modePinned: true });

    const unknown = await admin<{ error: { code: string } }>(
      'PUT',
      '/admin/shops/nobody.myshopify.com/mode',
      {
        mode: 'live',
      },
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');

    const bad = await admin<{ error: { code: string } }>('PUT', `/admin/shops/${free.domain}/mode`, {
      mode: 'dry',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('bad_request');
    expect(await entry(free.domain)).toMatchObject({ mode: 'live' });
  });
});
