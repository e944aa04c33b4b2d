import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/admin-client.js';
import { signedInPage } from './support/admin-ui-session.js';
import { startBrowser, type TestBrowser } from './support/browser.js';
import { type ConnectorHarness, startConnector } from './support/connector-harness.js';
import { authorizeInstall, landInstall } from './support/install-browser.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { type SyncWorld, startSyncWorld } from './support/sync-world.js';
import { testShop } from './support/test-shop.js';
import { screenshotAt, seriousViolations } from './support/ui-audit.js';

// A shop's settings from the shops page in Debian's chromium: switched to shadow and back to live
// through confirm pages (checked in GET /admin/shops, refused without the CSRF token), its
// preview page once a product was planned in shadow (counts, diffs, final state; the CSV under
// the session), a configured shop's catalog key refused (set in its environment); the preview
// and the mode confirm pages at 1280 and 390 px with axe-core.
describe('/admin/ui shop settings: mode, catalog key, preview', () => {
  let world: SyncWorld;
  let browser: TestBrowser;
  const token = 'admin-settings-token-0123456789abcdef';
  const url = () => world.harness.url;
  const domain = () => world.shop.domain;
  const modeOf = async () =>
    (
      await call<{ shops: Array<{ shop: string; mode: string }> }>(url(), 'GET', '/admin/shops', token)
    ).body.shops.find((s) => s.shop === domain())?.mode;

  beforeAll(async () => {
    world = await startSyncWorld({ env: { CONNECTOR_ADMIN_TOKEN: token, CONNECTOR_MEDIA_ENABLED: 'false' } });
    browser = await startBrowser({ bypassCSP: true });
    await (await signedInPage(browser, url(), token)).close();
  });
  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });

  const check = async (name: string, path: string) => {
    for (const width of [1280, 390]) {
      const page = await browser.context.newPage();
      await page.setViewportSize({ width, height: 900 });
      const answer = await page.goto(`${url()}${path}`);
      expect(answer?.status(), path).toBe(200);
      expect(await screenshotAt(page, name, width)).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page)).toEqual([]);
      await page.close();
    }
  };
  const bare = (path: string, form: Record<string, string>) =>
    browser.context.request.post(`${url()}${path}`, { form, headers: { Origin: url() }, maxRedirects: 0 });

  it('switches the shop to shadow and back to live after confirm pages; refused without the CSRF token', async () => {
    expect(await modeOf()).toBe('live');
    expect((await bare(`/admin/ui/shops/${domain()}/mode`, { mode: 'shadow' })).status()).toBe(403);
    expect(await modeOf()).toBe('live');

    const page = await browser.context.newPage();
    await page.goto(`${url()}/admin/ui/shops`);
    await page.getByRole('link', { name: `Switch to shadow: ${domain()}` }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe(`Switch ${domain()} to shadow?`);
    expect(await modeOf()).toBe('live');
    await check('shop-mode-confirm', `/admin/ui/shops/${domain()}/mode`);
    await page.getByRole('button', { name: `Switch ${domain()} to shadow` }).click();
    await expect(page.locator('[role="status"]').textContent()).resolves.toBe(
      `${domain()} switched from live to shadow.`,
    );
    expect(await modeOf()).toBe('shadow');

    // In shadow a product is planned, not sent: the preview shows it.
    const productId = await world.createProduct({
      title: 'Preview Shirt',
      vendor: 'Acme',
      product_type: 'Shirts',
      options: [{ name: 'Size' }],
      variants: [{ option1: 'Small', price: '35.00', barcode: '4006381333931', sku: 'preview-shirt-S' }],
    });
    await world.settle(productId);
    await page.goto(`${url()}/admin/ui/shops`);
    await page.getByRole('link', { name: `Preview of ${domain()}` }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe(`Preview of ${domain()}`);
    await expect(page.locator('.preview-mode').textContent()).resolves.toBe('shadow');
    const product = page.locator(`section.preview-product[data-product="${productId}"]`);
    await expect(product.locator('table.diffs').first().textContent()).resolves.toContain('Preview Shirt');
    await expect(product.locator('code').first().textContent()).resolves.toMatch(/^POST \/v1\/products/);
    const csv = await browser.context.request.get(`${url()}/admin/ui/shops/${domain()}/preview.csv`);
    expect(csv.status()).toBe(200);
    expect(csv.headers()['content-type']).toContain('text/csv');
    expect(await csv.text()).toContain(productId);
    // Without the session, the CSV is not served.
    expect((await fetch(`${url()}/admin/ui/shops/${domain()}/preview.csv`)).status).toBe(401);
    await check('shop-preview', `/admin/ui/shops/${domain()}/preview`);

    expect((await bare(`/admin/ui/shops/${domain()}/mode`, { mode: 'live' })).status()).toBe(403);
    expect(await modeOf()).toBe('shadow');
    await page.goto(`${url()}/admin/ui/shops`);
    await page.getByRole('link', { name: `Switch to live: ${domain()}` }).click();
    await page.getByRole('button', { name: `Switch ${domain()} to live` }).click();
    await expect(page.locator('[role="status"]').textContent()).resolves.toContain(
      `${domain()} switched from shadow to live`,
    );
    expect(await modeOf()).toBe('live');
    await page.close();
  });

  it("refuses to set a configured shop's catalog key (it is set in the environment)", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${url()}/admin/ui/shops`);
    await expect(page.locator(`tr[data-shop-settings="${domain()}"]`).textContent()).resolves.toContain(
      'set in the environment',
    );
    const answer = await page.goto(`${url()}/admin/ui/shops/${domain()}/catalog-key`);
    expect(answer?.status()).toBe(409);
    await page.close();
  });
});

// An installed shop's catalog key set from the shops page (a password input; the key is never
// shown back), checked through GET /admin/shops, refused without the CSRF token.
describe('/admin/ui: an installed shop catalog key', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  let browser: TestBrowser;
  const shop = { domain: '' };
  const token = 'admin-install-token-0123456789abcdef';
  const keySet = async () =>
    (
      await call<{ shops: Array<{ shop: string; catalogKeySet: boolean }> }>(
        harness.url,
        'GET',
        '/admin/shops',
        token,
      )
    ).body.shops.find((s) => s.shop === shop.domain)?.catalogKeySet;

  beforeAll(async () => {
    sandboxes = await startSandboxes({ oauth: { autoApprove: true } });
    const installed = testShop({ webhookSecrets: [sandboxes.shopify.appSecret] });
    shop.domain = installed.domain;
    await sandboxes.addShop(installed);
    harness = await startConnector({
      shops: [],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: '',
      shopifyFetch: sandboxes.shopifyFetch,
      publicUrl: true,
      env: {
        CONNECTOR_SHOPIFY_INSTALLS: 'open',
        CONNECTOR_SHOPIFY_CLIENT_ID: sandboxes.shopify.clientId,
        CONNECTOR_SHOPIFY_CLIENT_SECRET: sandboxes.shopify.appSecret,
        CONNECTOR_ENCRYPTION_KEYS: Buffer.alloc(32, 7).toString('base64'),
        CONNECTOR_ADMIN_TOKEN: token,
        CONNECTOR_MEDIA_ENABLED: 'false',
      },
    });
    await sandboxes.shopify.control('PUT', `apps/${sandboxes.shopify.clientId}`, {
      redirectUrls: [`${harness.url}/auth/shopify/callback`],
    });
    const { callback, cookie } = await authorizeInstall(harness, shop.domain, sandboxes.shopifyFetch);
    expect((await landInstall(callback, cookie)).status).toBe(200);
    browser = await startBrowser({ bypassCSP: true });
  });
  afterAll(async () => {
    await browser?.close();
    await harness?.close();
    await sandboxes?.close();
  });

  it('sets the key through a password field, never echoing it; refused without the CSRF token', async () => {
    const apiKey = (await sandboxes.account()).apiKey;
    const page = await signedInPage(browser, harness.url, token);
    expect(await keySet()).toBe(false);
    const refused = await browser.context.request.post(
      `${harness.url}/admin/ui/shops/${shop.domain}/catalog-key`,
      {
        form: { apiKey },
        headers: { Origin: harness.url },
        maxRedirects: 0,
      },
    );
    expect(refused.status()).toBe(403);
    expect(await keySet()).toBe(false);

    await page.goto(`${harness.url}/admin/ui/shops`);
    await page.getByRole('link', { name: `Set the catalog key of ${shop.domain}` }).click();
    await expect(page.getByLabel('Catalog API key').getAttribute('type')).resolves.toBe('password');
    await page.getByLabel('Catalog API key').fill(apiKey);
    await page.getByRole('button', { name: `Set the catalog key of ${shop.domain}` }).click();
    await expect(page.locator('[role="status"]').textContent()).resolves.toBe(
      `The catalog key of ${shop.domain} is set.`,
    );
    expect(await page.content()).not.toContain(apiKey);
    expect(await keySet()).toBe(true);
    await page.goto(`${harness.url}/admin/ui/shops/${shop.domain}/catalog-key`);
    expect(await page.content()).not.toContain(apiKey);
    await page.close();
  });
});
