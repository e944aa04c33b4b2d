import { randomBytes } from 'node:crypto';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, call } from './support/admin-client.js';
import { signedInPage } from './support/admin-ui-session.js';
import { CHROMIUM, startBrowser, type TestBrowser } from './support/browser.js';
import { eventually } from './support/connector-harness.js';
import { type SyncWorld, startSyncWorld } from './support/sync-world.js';
import { screenshotAt, seriousViolations, tabThrough } from './support/ui-audit.js';

// The product part of the operators' view in Debian's chromium: searching by Shopify product id
// and supplierSku, a product's page with both sides, the owners and the history in words, a
// resync (of the product, and of a selection ticked on the products page) confirmed then done
// from the browser, refused without the CSRF token; the product's page with the keyboard alone;
// each page's screenshot at 1280 and 390 px and its axe-core check.
describe('/admin/ui products in a browser', () => {
  let world: SyncWorld;
  let browser: TestBrowser;
  let axeBrowser: Browser;
  let productId: string;
  let supplierSku: string;
  const title = `Linen shirt ${randomBytes(3).toString('hex')}`;
  const token = `admin-${randomBytes(16).toString('hex')}`;
  const harness = {
    get url() {
      return world.harness.url;
    },
  };
  const shop = {
    get domain() {
      return world.shop.domain;
    },
  };
  const admin = <T = Record<string, unknown>>(method: string, path: string): Promise<Answer<T>> =>
    call<T>(harness.url, method, path, token);

  beforeAll(async () => {
    world = await startSyncWorld({ env: { CONNECTOR_ADMIN_TOKEN: token } });
    productId = await world.createProduct({
      title,
      vendor: 'Acme',
      product_type: 'Shirts',
      body_html: '<p>Soft linen.</p>',
      options: [{ name: 'Size' }],
      variants: [{ option1: 'Small', price: '35.00', barcode: '4006381333931', sku: `${title}-S` }],
    });
    await world.settle(productId);
    const rows = await eventually(async () => {
      const found = await world.mapRows(productId);
      return found.length === 2 && found.every((r) => r.state === 'live' && r.sku_id !== null) && found;
    }, 30_000);
    supplierSku = (rows.find((r) => r.shopify_variant_id === null) ?? rows[0])?.supplier_sku as string;
    browser = await startBrowser();
    axeBrowser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await axeBrowser?.close();
    await browser?.close();
    await world?.close();
  });

  const signedIn = async (): Promise<Page> => {
    const page = await signedInPage(browser, harness.url, token);
    await page.goto(`${harness.url}/admin/ui/products`);
    return page;
  };

  /** Screenshots at 1280 and 390 px, then axe-core in a CSP-bypassing context: no serious violation. */
  const check = async (name: string, path: string) => {
    const context = await axeBrowser.newContext({ bypassCSP: true });
    await context.addCookies(await browser.context.cookies());
    const page = await context.newPage();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      const answer = await page.goto(`${harness.url}${path}`);
      expect(answer?.status(), path).toBe(200);
      expect(
        await screenshotAt(page, name, width),
        `${name} at ${width} px scrolls sideways`,
      ).toBeLessThanOrEqual(0);
    }
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  };

  it('finds the product by its Shopify product id and by its supplierSku', async () => {
    const page = await signedIn();
    for (const query of [productId, supplierSku]) {
      await page.getByLabel('Shopify product id, supplierSku or skuId').fill(query);
      await page.locator('select#shop').selectOption(shop.domain);
      await Promise.all([
        page.waitForURL((url) => url.searchParams.get('q') === query),
        page.keyboard.press('Enter'),
      ]);
      await expect(page.locator('[role="status"]').textContent()).resolves.toContain('1 product found');
      expect(await page.locator('ul.results a').getAttribute('href')).toBe(
        `/admin/ui/products/${productId}?shop=${encodeURIComponent(shop.domain)}`,
      );
    }
    await page.getByLabel('Shopify product id, supplierSku or skuId').fill('no-such-sku-anywhere');
    await Promise.all([
      page.waitForURL((url) => url.searchParams.get('q') === 'no-such-sku-anywhere'),
      page.keyboard.press('Enter'),
    ]);
    await expect(page.locator('[role="status"]').textContent()).resolves.toContain('No product found');
    await page.close();
    await check('search', `/admin/ui/products?q=${encodeURIComponent(supplierSku)}`);
  });

  it("shows the product's two sides, its owners and its history in words", async () => {
    const page = await signedIn();
    await page.getByLabel('Shopify product id, supplierSku or skuId').fill(productId);
    await page.keyboard.press('Enter');
    await page.locator('ul.results a').click();
    await page.waitForURL(new RegExp(`/admin/ui/products/${productId}\\?`));
    await expect(page.locator('h1').textContent()).resolves.toBe(`${title} (product ${productId})`);
    // Both sides of the title, the catalog's read now.
    const name = page.locator('table.fields tr[data-attribute="name"]');
    await expect(name.locator('.shopify-side').textContent()).resolves.toBe(title);
    await expect(name.locator('.catalog-side').textContent()).resolves.toBe(title);
    await expect(page.locator('p.sides-note').textContent()).resolves.toContain('enrichment');
    await expect(page.locator('.last-sync').textContent()).resolves.toMatch(/(just now|min ago): /);
    await expect(page.locator('h2', { hasText: 'Owners' }).count()).resolves.toBe(1);
    await expect(page.locator('section.owners').textContent()).resolves.toMatch(
      /owned by the|every field is Shopify's/,
    );
    // The create: the sync that sent the product and its variant to the catalog, in words.
    const sync = page.locator('li.event-sync', { hasText: 'POST' }).last();
    await expect(sync.locator('span').first().textContent()).resolves.toMatch(
      /^(just now|\d+ min ago): sync after [\w ]+: \w+.* → (\d+ \w+, )*\d+ POSTs?( and \d+ \w+)? to the catalog$/,
    );
    // The raw record is one click away, not JSON on the page.
    await expect(sync.locator('details').getAttribute('open')).resolves.toBeNull();
    await expect(sync.locator('details dl').isVisible()).resolves.toBe(false);
    await sync.locator('summary').click();
    await expect(sync.locator('details dl').isVisible()).resolves.toBe(true);
    await expect(page.locator('li.event-webhook').first().textContent()).resolves.toMatch(
      /product (created|changed) in Shopify/,
    );
    await page.close();
    await check('product', `/admin/ui/products/${productId}?shop=${shop.domain}`);
  });

  it("reaches every control of the product's page with Tab alone, each with a visible focus style", async () => {
    const page = await signedIn();
    await page.goto(`${harness.url}/admin/ui/products/${productId}?shop=${shop.domain}`);
    const walk = await tabThrough(page);
    // Its actions among them: the resync link and the raw records' disclosures.
    expect(walk.controls).toContainEqual(expect.stringMatching(/^\d+: a Resync this product…$/));
    expect(walk.controls).toContainEqual(expect.stringMatching(/^\d+: summary Raw record$/));
    expect(walk.missed).toEqual([]);
    expect(walk.unmarked).toEqual([]);
    await page.close();
  });

  it('resyncs the product after a confirm step, and refuses the action without the CSRF token', async () => {
    const page = await signedIn();
    await page.goto(`${harness.url}/admin/ui/products/${productId}?shop=${shop.domain}`);
    await page.getByRole('link', { name: 'Resync this product…' }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe(`Resync product ${productId}?`);
    await expect(page.locator('main p').first().textContent()).resolves.toContain(
      'syncs it to the catalog again',
    );
    await page.getByRole('button', { name: `Resync product ${productId}` }).click();
    await page.waitForURL(/done=/);
    const notice = (await page.locator('[role="status"]').textContent()) ?? '';
    const runId = /run ([\w-]+)\./.exec(notice)?.[1] as string;
    expect(runId).toBeTruthy();
    const run = await eventually(async () => {
      const answer = await admin<{ state: string; productId: string }>('GET', `/admin/resync/${runId}`);
      return answer.status === 200 && answer.body.state === 'done' && answer.body;
    });
    expect(run.productId).toBe(productId);

    const bare = await page.context().request.post(`${harness.url}/admin/ui/products/${productId}/resync`, {
      form: { shop: shop.domain },
      headers: { Origin: harness.url },
      maxRedirects: 0,
    });
    // The guard refuses before the action runs: no resync is started.
    expect(bare.status()).toBe(403);
    expect(await bare.text()).toContain('Refused');
    await page.close();
  });

  it('resyncs a selection ticked on the products page after a confirm step, refused without the CSRF token', async () => {
    const item = `${shop.domain}:${productId}`;
    const bare = await browser.context.request.post(`${harness.url}/admin/ui/resync-selection`, {
      form: { items: item },
      headers: { Origin: harness.url },
      maxRedirects: 0,
    });
    expect(bare.status()).toBe(403);
    // In a CSP-bypassing context: the answer to the POST is checked with axe-core too.
    const context = await axeBrowser.newContext({ bypassCSP: true });
    await context.addCookies(await browser.context.cookies());
    const page = await context.newPage();
    await page.goto(`${harness.url}/admin/ui/products?shop=${shop.domain}&q=${productId}`);
    // Ticked in the connector's results (Shopify's matches may name the same product).
    await page.locator('ul.results').getByLabel(`Select product ${productId} of ${shop.domain}`).check();
    await page.getByRole('button', { name: 'Resync selected…' }).click();
    await page.waitForURL(/\/admin\/ui\/resync-selection\?item=/);
    await expect(page.locator('h1').textContent()).resolves.toBe('Resync 1 product(s)?');
    await expect(page.locator('ul.selection li').allTextContents()).resolves.toEqual([
      `Product ${productId} ${shop.domain}`,
    ]);
    await check('resync-selection', `/admin/ui/resync-selection?item=${encodeURIComponent(item)}`);
    await page.getByRole('button', { name: 'Resync 1 product(s)' }).click();
    await expect(page.locator('[role="status"]').textContent()).resolves.toBe(
      'Resync started for 1 of 1 product(s).',
    );
    const runId = (await page.locator('li[data-run]').getAttribute('data-run')) as string;
    const run = await eventually(async () => {
      const answer = await admin<{ state: string; productId: string }>('GET', `/admin/resync/${runId}`);
      return answer.status === 200 && answer.body.state === 'done' && answer.body;
    });
    expect(run.productId).toBe(productId);
    for (const width of [1280, 390]) {
      const overflow = await screenshotAt(page, 'resync-selection-done', width);
      expect(overflow, `the result at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
    }
    expect(await seriousViolations(page)).toEqual([]);
    // A product of a shop this connector does not serve is refused before anything starts.
    const foreign = await page.goto(`${harness.url}/admin/ui/resync-selection?item=other.myshopify.com:1`);
    expect(foreign?.status()).toBe(400);
    await context.close();
  });

  it("pauses and resumes the shop's syncing after confirm steps, each refused without the CSRF token", async () => {
    const paused = async () =>
      (
        await admin<{ pauses: Array<{ scope: string; reason: string }> }>('GET', '/admin/queues')
      ).body.pauses.filter((p) => p.scope === shop.domain);
    const bare = async (action: 'pause' | 'resume') =>
      (
        await browser.context.request.post(`${harness.url}/admin/ui/shops/${shop.domain}/${action}`, {
          form: { reason: 'forged' },
          headers: { Origin: harness.url },
          maxRedirects: 0,
        })
      ).status();
    const page = await signedIn();
    await page.goto(`${harness.url}/admin/ui/products/${productId}?shop=${shop.domain}`);
    await page.getByRole('link', { name: 'Syncing of the shop' }).click();
    await expect(page.locator('.sync-state').textContent()).resolves.toContain('not paused');
    expect(await bare('pause')).toBe(403);
    expect(await paused()).toEqual([]);

    await page.getByRole('link', { name: 'Pause syncing…' }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe(`Pause syncing of ${shop.domain}?`);
    await page.getByLabel('Reason, shown to other operators').fill('catalog maintenance');
    await page.getByRole('button', { name: `Pause syncing of ${shop.domain}` }).click();
    await expect(page.locator('[role="status"]').textContent()).resolves.toBe(
      `Syncing of ${shop.domain} paused.`,
    );
    await expect(page.locator('.sync-state').textContent()).resolves.toContain('catalog maintenance');
    expect(await paused()).toMatchObject([{ reason: 'catalog maintenance' }]);
    await check('shop-sync', `/admin/ui/shops/${shop.domain}/sync`);

    expect(await bare('resume')).toBe(403);
    expect(await paused()).toHaveLength(1);
    await page.getByRole('link', { name: 'Resume syncing…' }).click();
    await page.getByRole('button', { name: `Resume syncing of ${shop.domain}` }).click();
    await expect(page.locator('[role="status"]').textContent()).resolves.toBe(
      `Syncing of ${shop.domain} resumed.`,
    );
    expect(await paused()).toEqual([]);
    await page.close();
  });

  it('resyncs the whole shop after a confirm step, refused without the CSRF token', async () => {
    const bare = await browser.context.request.post(`${harness.url}/admin/ui/shops/${shop.domain}/resync`, {
      form: {},
      headers: { Origin: harness.url },
      maxRedirects: 0,
    });
    expect(bare.status()).toBe(403);
    const page = await signedIn();
    await page.goto(`${harness.url}/admin/ui/shops/${shop.domain}/sync`);
    await page.getByRole('link', { name: 'Resync the whole shop…' }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe(`Resync every product of ${shop.domain}?`);
    await page.getByRole('button', { name: `Resync every product of ${shop.domain}` }).click();
    const notice = (await page.locator('[role="status"]').textContent()) ?? '';
    const runId = /run ([\w-]+)\./.exec(notice)?.[1] as string;
    expect(runId).toBeTruthy();
    const run = await eventually(async () => {
      const answer = await admin<{ state: string; scope: string; listed: number }>(
        'GET',
        `/admin/resync/${runId}`,
      );
      return answer.status === 200 && answer.body.state === 'done' && answer.body;
    }, 30_000);
    expect(run).toMatchObject({ scope: 'shop', listed: 1 });
    await page.close();
  });

  it('starts an enrichment poll from a confirm page and shows its state, refused without the CSRF token', async () => {
    const bare = await browser.context.request.post(`${harness.url}/admin/ui/enrichment/poll`, {
      form: {},
      headers: { Origin: harness.url },
      maxRedirects: 0,
    });
    expect(bare.status()).toBe(403);
    const page = await signedIn();
    await page.goto(`${harness.url}/admin/ui/enrichment/poll`);
    await expect(page.locator('[role="status"]').count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Start a poll now' }).click();
    await page.waitForURL(/\?poll=poll-/);
    const pollId = new URL(page.url()).searchParams.get('poll') as string;
    await expect(page.locator('[role="status"]').textContent()).resolves.toContain(`Poll ${pollId} started`);
    const polled = await eventually(async () => {
      const answer = await admin<{ status: string }>('GET', `/admin/enrichment/poll/${pollId}`);
      return answer.status === 200 && answer.body.status === 'finished' && answer.body;
    }, 30_000);
    expect(polled.status).toBe('finished');
    await page.close();
  });
});
