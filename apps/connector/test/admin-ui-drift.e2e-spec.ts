import { randomBytes } from 'node:crypto';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPage } from './support/admin-ui-session.js';
import { CHROMIUM, startBrowser, type TestBrowser } from './support/browser.js';
import { type SyncWorld, startSyncWorld } from './support/sync-world.js';
import { screenshotAt, seriousViolations } from './support/ui-audit.js';

// The drift part of the operators' view in Debian's chromium: the connector's own leftover (its
// derived supplierSku of a product Shopify does not have), holding an approved value, is put in
// the catalog behind the connector's back; a report is run from the browser (confirmed), the
// orphan is chosen and repaired (confirmed), held until the loss of its approved value is
// confirmed too, then deleted, and the next report finds it resolved. Each POST is refused without the CSRF token; each page's screenshot at 1280 and
// 390 px and its axe-core check. Then linking with a dry run, and a search by title in Shopify.
describe('/admin/ui drift in a browser', () => {
  let world: SyncWorld;
  let browser: TestBrowser;
  let axeBrowser: Browser;
  let straySku: string;
  const token = `admin-${randomBytes(16).toString('hex')}`;
  const url = () => world.harness.url;

  beforeAll(async () => {
    world = await startSyncWorld({ env: { CONNECTOR_ADMIN_TOKEN: token } });
    const handle = world.shop.domain.replace(/\.myshopify\.com$/, '');
    const stray = await world.sandboxes.catalog.portal.post(
      `/portal/v1/accounts/${world.account.id}/products/bulk`,
      {
        products: [
          {
            supplierSku: `${handle}:product:9${Date.now()}`,
            attributes: [
              { key: 'name', value: 'Left over' },
              { key: 'brand', value: 'Acme' },
              { key: 'seoTitle', value: 'An approved title', blame: 'ENRICHMENT_APPROVED' },
            ],
          },
        ],
      },
    );
    expect(stray.status).toBe(200);
    [straySku] = (stray.body as { data: { skuIds: string[] } }).data.skuIds as [string];
    browser = await startBrowser();
    axeBrowser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await axeBrowser?.close();
    await browser?.close();
    await world?.close();
  });

  const signedIn = async (): Promise<Page> => {
    const page = await signedInPage(browser, url(), token);
    await page.goto(`${url()}/admin/ui/drift`);
    return page;
  };

  const check = async (name: string, path: string) => {
    const context = await axeBrowser.newContext({ bypassCSP: true });
    await context.addCookies(await browser.context.cookies());
    const page = await context.newPage();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      const answer = await page.goto(`${url()}${path}`);
      expect(answer?.status(), path).toBe(200);
      const overflow = await screenshotAt(page, name, width);
      expect(overflow, `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
    }
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  };

  const bare = async (path: string, form: Record<string, string> = {}) =>
    (
      await browser.context.request.post(`${url()}${path}`, {
        form,
        headers: { Origin: url() },
        maxRedirects: 0,
      })
    ).status();

  it('runs a report, repairs the chosen orphan, and the next report finds it resolved', async () => {
    const shop = world.shop.domain;
    const page = await signedIn();
    expect(await bare(`/admin/ui/drift/shops/${shop}/run`)).toBe(403);
    await expect(page.locator('h1').textContent()).resolves.toBe('Drift');
    await check('drift-list-empty', '/admin/ui/drift');

    await page.getByRole('link', { name: 'Run a report now…' }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe(`Run a drift report for ${shop}?`);
    await Promise.all([
      page.waitForURL(/\/admin\/ui\/drift\/\d+$/),
      page.getByRole('button', { name: 'Run the report' }).click(),
    ]);
    const reportPath = new URL(page.url()).pathname;
    const orphans = page.locator('section', { hasText: 'Catalog record nobody links' });
    await expect(orphans.locator('li', { hasText: `record ${straySku}` }).textContent()).resolves.toContain(
      'Repair: delete the record from the catalog for good',
    );
    await check('drift-report', reportPath);

    const item = orphans.locator('li', { hasText: `record ${straySku}` });
    const findingId = (await item.locator('input[type="checkbox"]').getAttribute('value')) as string;
    expect(await bare(`${reportPath}/repairs`, { ids: findingId })).toBe(403);
    await item.getByRole('checkbox').check();
    await orphans.getByRole('button', { name: 'Repair the selected…' }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe('Repair 1 finding(s)?');
    await expect(page.locator('main ul').textContent()).resolves.toContain(
      'will delete the record from the catalog',
    );
    await check('drift-repair-confirm', new URL(page.url()).pathname + new URL(page.url()).search);
    await page.getByRole('button', { name: 'Run 1 repair(s)' }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe('Drift repairs done');
    await expect(page.locator('.repair-outcome').allTextContents()).resolves.toEqual([
      'not deleted: it holds approved enrichment, confirm the loss first',
    ]);
    expect(await world.catalogRecord(straySku)).toBeTruthy();
    await expect(page.locator('#confirm-loss + ul').textContent()).resolves.toContain(
      `record ${straySku} and its approved seoTitle, lost for good`,
    );
    await page.getByRole('button', { name: 'Delete 1 record(s) and lose what is listed' }).click();
    await expect(page.locator('.repair-outcome').allTextContents()).resolves.toEqual([
      'record deleted from the catalog',
    ]);
    expect(await world.catalogRecord(straySku)).toBeFalsy();

    await page.goto(`${url()}/admin/ui/drift/shops/${shop}/run`);
    await Promise.all([
      page.waitForURL((u) => /\/admin\/ui\/drift\/\d+$/.test(u.pathname) && u.pathname !== reportPath),
      page.getByRole('button', { name: 'Run the report' }).click(),
    ]);
    await expect(page.locator('main').textContent()).resolves.not.toContain(`record ${straySku}`);
    await expect(page.locator('main p').first().textContent()).resolves.toMatch(
      /[1-9]\d* finding\(s\) of the previous report resolved/,
    );
    await page.goto(`${url()}/admin/ui/drift`);
    const row = page.locator('tbody tr', { hasText: shop });
    await expect(row.locator('td').nth(4).textContent()).resolves.not.toBe('0');
    await check('drift-list', '/admin/ui/drift');
    await page.close();
  });

  it('links with a dry run first, then for real after the confirm, refused without the CSRF token', async () => {
    const shop = world.shop.domain;
    const productId = await world.createProduct({ title: 'Oak Board', vendor: 'Acme' });
    await world.settle(productId);
    expect(await bare(`/admin/ui/link/${shop}`)).toBe(403);
    const page = await signedIn();
    await page.goto(`${url()}/admin/ui/link/${shop}`);
    await expect(page.locator('h1').textContent()).resolves.toBe(`Link ${shop}: dry run`);
    await expect(page.locator('[role="status"]').textContent()).resolves.toBe(
      'Dry run: nothing was changed.',
    );
    await expect(page.locator('ul.updated').textContent()).resolves.toContain(`product ${productId}`);
    await check('link', `/admin/ui/link/${shop}`);
    await page.getByRole('button', { name: `Link ${shop} for real` }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe(`Linked ${shop}`);
    await expect(page.locator('[role="status"]').textContent()).resolves.toMatch(/Resync run \S+ started\./);

    // Found by its title through Shopify's search and the connector's own tables, as one result.
    const search = `/admin/ui/products?q=${encodeURIComponent('Oak Board')}&shop=${encodeURIComponent(shop)}`;
    await page.goto(`${url()}${search}`);
    await expect(page.locator('[role="status"]').textContent()).resolves.toBe(
      '1 product found for Oak Board.',
    );
    expect(await page.locator('ul.results a').getAttribute('href')).toBe(
      `/admin/ui/products/${productId}?shop=${encodeURIComponent(shop)}`,
    );
    await expect(page.locator('ul.results a').textContent()).resolves.toBe('Oak Board');
    await expect(page.locator('ul.results .muted').textContent()).resolves.toMatch(/in Shopify$/);
    await check('search-title', search);
    await page.close();
  });
});
