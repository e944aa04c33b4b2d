import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, call } from './support/admin-client.js';
import { signedInPage } from './support/admin-ui-session.js';
import { startBrowser, type TestBrowser } from './support/browser.js';
import { eventually } from './support/connector-harness.js';
import { type SyncWorld, startSyncWorld } from './support/sync-world.js';
import { screenshotAt, seriousViolations } from './support/ui-audit.js';

const EXACT = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/;
const ISO_WITH_MS = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/;

/** The right edge and visibility of every element a selector matches (each row's cell of a column). */
async function columnBoxes(page: Page, selector: string): Promise<Array<{ right: number; shown: boolean }>> {
  return (await page.evaluate(
    `[...document.querySelectorAll(${JSON.stringify(selector)})].map((e) => {
      const box = e.getBoundingClientRect();
      return { right: box.right, shown: box.width > 0 && getComputedStyle(e).display !== 'none' };
    })`,
  )) as Array<{ right: number; shown: boolean }>;
}

// The pages people read, in Debian's chromium, against a connector that synced two products of
// its shop through both sandboxes: titles beside product ids in the lists, times relative to the
// connector's clock with the exact time on hover, stored names in words, the products page
// listing what was synced and finding it by title (the connector's and Shopify's matches as one
// list), charts over a window that fits a young connector with units on their axes and the lag
// chart agreeing with its card; every main page at 1280 and 390 px with its state or outcome
// column in view at 390 px, and axe-core's check (no serious violation).
describe('/admin/ui pages people read', () => {
  let world: SyncWorld;
  let browser: TestBrowser;
  const word = `Pagecheck${randomBytes(3).toString('hex')}`;
  const titles = [`${word} linen shirt`, `${word} oak board`];
  const ids: string[] = [];
  const token = `admin-${randomBytes(16).toString('hex')}`;
  const url = () => world.harness.url;
  const admin = <T = Record<string, unknown>>(method: string, path: string): Promise<Answer<T>> =>
    call<T>(url(), method, path, token);

  beforeAll(async () => {
    world = await startSyncWorld({ env: { CONNECTOR_ADMIN_TOKEN: token } });
    for (const title of titles) {
      const id = await world.createProduct({
        title,
        vendor: 'Acme',
        product_type: 'Shirts',
        variants: [{ price: '35.00', barcode: '4006381333931' }],
      });
      await world.settle(id);
      ids.push(id);
    }
    for (const id of ids) {
      await eventually(async () => (await world.mapRows(id)).some((r) => r.state === 'live'), 30_000);
    }
    // One enrichment poll, so that the lag has a value and its chart a line.
    const poll = await admin<{ id: string }>('POST', '/admin/enrichment/poll');
    expect(poll.status).toBe(200);
    await eventually(async () => {
      const status = await admin<{ status: string }>('GET', `/admin/enrichment/poll/${poll.body.id}`);
      if (status.body.status === 'failed') throw new Error(`poll failed: ${status.text}`);
      return status.body.status === 'finished';
    }, 60_000);
    browser = await startBrowser({ bypassCSP: true });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });

  const signedIn = (width = 1280): Promise<Page> => signedInPage(browser, url(), token, width);

  it('shows each product’s title beside its id in the sync records and deliveries', async () => {
    const page = await signedIn();
    for (const path of ['/admin/ui/syncs', '/admin/ui/deliveries']) {
      await page.goto(`${url()}${path}`);
      for (const [i, id] of ids.entries()) {
        const link = page.locator(`tbody tr a.product[href^="/admin/ui/products/${id}?"]`).first();
        await expect(link.textContent(), path).resolves.toBe(titles[i]);
        await expect(link.locator('xpath=following-sibling::span[1]').textContent(), path).resolves.toBe(id);
      }
    }
    // Stored names in words: why a sync ran and how it ended, a delivery's state.
    await page.goto(`${url()}/admin/ui/syncs`);
    const row = page.locator('tbody tr[data-sync-record]').first();
    await expect(row.locator('td').nth(3).textContent()).resolves.toBe('a webhook');
    await expect(row.locator('td.outcome').textContent()).resolves.toBe('synced');
    await expect(page.locator('thead th').allTextContents()).resolves.not.toContain('After');
    await page.goto(`${url()}/admin/ui/deliveries`);
    await expect(page.locator('tbody td.state').first().textContent()).resolves.toBe('handled');
    await page.close();
  });

  it('shows times relative to now with the exact time on hover, never with milliseconds', async () => {
    const page = await signedIn();
    for (const path of [
      '/admin/ui/syncs',
      '/admin/ui/deliveries',
      '/admin/ui/enrichment-polls',
      '/admin/ui/catalog-calls',
    ]) {
      await page.goto(`${url()}${path}`);
      const times = page.locator('tbody time');
      expect(await times.count(), path).toBeGreaterThan(0);
      await expect(times.first().textContent(), path).resolves.toMatch(/^(just now|\d+ min ago)$/);
      await expect(times.first().getAttribute('title'), path).resolves.toMatch(EXACT);
      await expect(times.first().getAttribute('datetime'), path).resolves.toMatch(
        /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
      );
      expect(await page.evaluate('document.body.innerText'), path).not.toMatch(ISO_WITH_MS);
    }
    await page.goto(`${url()}/admin/ui/products/${ids[0]}`);
    await expect(page.locator('h1').textContent()).resolves.toBe(`${titles[0]} (product ${ids[0]})`);
    await expect(page.locator('ol.timeline li time').first().getAttribute('title')).resolves.toMatch(EXACT);
    await page.close();
  });

  it('lists the synced products on the products page, and finds them by title as one result', async () => {
    const page = await signedIn();
    await page.goto(`${url()}/admin/ui/products`);
    const recent = page.locator('table.recent tbody tr a.product');
    await expect(recent.allTextContents()).resolves.toEqual([...titles].reverse());
    // By title: the connector's products and Shopify's search, each product once, one count.
    await page.getByLabel('Title, Shopify product id, supplierSku or skuId').fill(word);
    await Promise.all([
      page.waitForURL((u) => u.searchParams.get('q') === word),
      page.keyboard.press('Enter'),
    ]);
    await expect(page.locator('[role="status"]').textContent()).resolves.toBe(
      `2 products found for ${word}.`,
    );
    expect(await page.content()).not.toContain('No product found');
    await expect(page.locator('ul.results li a').allTextContents()).resolves.toEqual(titles);
    for (const item of await page.locator('ul.results li .muted').allTextContents()) {
      expect(item).toMatch(/known to the connector, in Shopify$/);
    }
    // Part of a title, in another case: the connector's own match.
    await page.goto(`${url()}/admin/ui/products?q=${encodeURIComponent('OAK BOARD')}`);
    await expect(page.locator('ul.results li a').allTextContents()).resolves.toEqual([titles[1]]);
    expect(await page.locator('ul.results li a').getAttribute('href')).toBe(
      `/admin/ui/products/${ids[1]}?shop=${encodeURIComponent(world.shop.domain)}`,
    );
    await page.close();
  });

  it('draws charts over a window that fits a young connector, with units, the lag chart agreeing with its card', async () => {
    const page = await signedIn();
    const charts = await page.locator('svg[role="img"] title').allTextContents();
    expect(charts).toHaveLength(6);
    for (const title of charts) expect(title).toMatch(/, last \d+ minutes$/);
    expect(await page.content()).not.toContain('24 h ago');
    await expect(page.locator('svg .unit').allTextContents()).resolves.toEqual([
      'deliveries/min',
      'deliveries/min',
      'calls/min',
      's',
      'writes/min',
      'failures/min',
    ]);
    const card = (await page
      .locator('.cards a', { hasText: 'Enrichment lag' })
      .locator('strong')
      .textContent()) as string;
    expect(card).toMatch(/^\d+ (s|min)$/);
    await expect(page.locator('#chart-lag-d').textContent()).resolves.toContain(`lag: now ${card},`);
    // No value on an axis or in a description with more than one decimal.
    const texts = await page.locator('svg[role="img"] text, svg[role="img"] desc').allTextContents();
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts) expect(text).not.toMatch(/\d\.\d\d/);
    await page.close();
  });

  for (const [name, path, column] of [
    ['overview', '/admin/ui', 'tbody td[class^="state-"]'],
    ['shops', '/admin/ui/shops', 'tbody td.auth'],
    ['products', '/admin/ui/products', 'tbody td.synced'],
    ['product', '', null],
    ['failures', '/admin/ui/failures', null],
    ['deliveries', '/admin/ui/deliveries', 'tbody td.outcome'],
    ['syncs', '/admin/ui/syncs', 'tbody td.outcome'],
    ['write-backs', '/admin/ui/write-backs', null],
    ['enrichment-polls', '/admin/ui/enrichment-polls', 'tbody td.outcome'],
    ['catalog-calls', '/admin/ui/catalog-calls', null],
  ] as const) {
    it(`${name}: screenshots at 1280 and 390 px, ${column ? 'its state or outcome column in view at 390 px, ' : ''}no serious accessibility violation`, async () => {
      for (const width of [1280, 390]) {
        const page = await signedIn(width);
        const answer = await page.goto(`${url()}${path || `/admin/ui/products/${ids[0]}`}`);
        expect(answer?.status()).toBe(200);
        expect(await screenshotAt(page, `pages-${name}`, width)).toBeLessThanOrEqual(0);
        if (column !== null) {
          const boxes = await columnBoxes(page, column);
          expect(boxes.length, `${name}: ${column}`).toBeGreaterThan(0);
          for (const box of boxes) {
            expect(box.shown, `${name} at ${width} px: ${column} shown`).toBe(true);
            expect(box.right, `${name} at ${width} px: ${column} within the viewport`).toBeLessThanOrEqual(
              width,
            );
          }
        }
        expect(await seriousViolations(page)).toEqual([]);
        await page.close();
      }
    });
  }
});
