import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, call } from './support/admin-client.js';
import { signedInPage } from './support/admin-ui-session.js';
import { startBrowser, type TestBrowser } from './support/browser.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { productUpdateBody, type TestShop, testShop } from './support/test-shop.js';
import { screenshotAt, seriousViolations, tabThrough } from './support/ui-audit.js';

interface ShopState {
  shop: string;
  state: string;
  reasons: string[];
}

// The operator's overview in Debian's chromium: four shops, each driven into one state by a
// rule (healthy; degraded by an open failure; failing by an operator's pause and by an
// uninstall), shown by GET /admin/overview and on the page; the overview, shops, failures,
// deliveries, write-backs, sync records, enrichment polls, catalog calls, runs and alerts pages at 1280 and
// 390 px (screenshots under .tmp/admin-ui), each checked with axe-core; the skip link and the
// navigation reached with Tab, and every control of the overview with a visible focus style.
describe('/admin/ui overview: shop states, pages, accessibility', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  let browser: TestBrowser;
  const shops = {
    healthy: testShop(),
    degraded: testShop(),
    paused: testShop(),
    uninstalled: testShop(),
  };
  const token = 'admin-overview-token-0123456789abcdef';
  const admin = <T = Record<string, unknown>>(method: string, path: string): Promise<Answer<T>> =>
    call<T>(harness.url, method, path, token);
  const states = async () =>
    new Map(
      (await admin<{ shops: ShopState[] }>('GET', '/admin/overview')).body.shops.map((s) => [s.shop, s]),
    );

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    for (const shop of Object.values(shops)) await sandboxes.addShop(shop);
    harness = await startConnector({
      // The degraded shop's token is revoked: its sync fails at once, permanently (an open failure).
      shops: [
        shops.healthy,
        { ...shops.degraded, accessToken: 'shpat_revoked' },
        shops.paused,
        shops.uninstalled,
      ],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: (await sandboxes.account()).apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      env: { CONNECTOR_ADMIN_TOKEN: token, CONNECTOR_MEDIA_ENABLED: 'false' },
    });
    await harness.deliver({
      shop: shops.degraded,
      body: productUpdateBody('7390000888001', new Date().toISOString()),
    });
    expect(
      (await admin('POST', `/admin/sync/pause?shop=${shops.paused.domain}&reason=maintenance`)).status,
    ).toBe(200);
    const gone = await harness.deliver({ shop: shops.uninstalled, topic: 'app/uninstalled', body: '{}' });
    expect(gone.status).toBe(200);
    browser = await startBrowser({ bypassCSP: true });
  });
  afterAll(async () => {
    await browser?.close();
    await harness?.close();
    await sandboxes?.close();
  });

  it('gives each shop its state by the documented rules, with the reason in words (GET /admin/overview)', async () => {
    const shown = await eventually(async () => {
      const all = await states();
      return all.get(shops.degraded.domain)?.state === 'degraded' &&
        all.get(shops.uninstalled.domain)?.state === 'failing'
        ? all
        : undefined;
    });
    expect(shown.get(shops.healthy.domain)).toMatchObject({
      state: 'healthy',
      reasons: ['everything gets through'],
    });
    expect(shown.get(shops.degraded.domain)?.reasons.join('; ')).toMatch(/open failures: 1 sync-product/);
    expect(shown.get(shops.paused.domain)).toMatchObject({
      state: 'failing',
      reasons: ['syncing is paused by an operator (maintenance)'],
    });
    expect(shown.get(shops.uninstalled.domain)?.reasons.join('; ')).toMatch(/the app is uninstalled/);
  });

  const signedIn = (width: number): Promise<Page> => signedInPage(browser, harness.url, token, width);

  it('shows each state and its reason on the overview, every figure linking to its list', async () => {
    const page = await signedIn(1280);
    const state = (shop: TestShop) => page.locator(`tr[data-shop="${shop.domain}"] td[class^="state-"]`);
    await expect(state(shops.healthy).textContent()).resolves.toBe('healthy');
    await expect(state(shops.degraded).textContent()).resolves.toBe('degraded');
    await expect(state(shops.paused).textContent()).resolves.toBe('failing');
    await expect(state(shops.uninstalled).textContent()).resolves.toBe('failing');
    await expect(
      page.locator(`tr[data-shop="${shops.paused.domain}"] .reasons`).textContent(),
    ).resolves.toContain('paused by an operator (maintenance)');
    // Six charts, each an SVG image with its title, drawn on the server.
    // Over the minutes since the connector started (a young one: no 24-hour window).
    await expect(page.locator('svg[role="img"] title').allTextContents()).resolves.toEqual(
      [
        'Webhook deliveries per minute',
        'Deliveries synced per minute by outcome',
        'Catalog calls and 429 answers per minute',
        'Enrichment poll lag (time since the last finished poll)',
        'Write-backs to Shopify per minute',
        'Failures opened and resolved per minute',
      ].map((title) =>
        expect.stringMatching(new RegExp(`^${title.replace(/[()]/g, '\\$&')}, last \\d+ minutes$`)),
      ),
    );
    // The degraded shop's open failure count leads to its failures.
    await page.click(`tr[data-shop="${shops.degraded.domain}"] a[href^="/admin/ui/failures"]`);
    await page.waitForURL(/\/admin\/ui\/failures\?shop=/);
    await expect(page.locator('tbody tr[data-failure-id]').count()).resolves.toBe(1);
    await expect(page.locator('tbody tr[data-failure-id] td').nth(1).textContent()).resolves.toBe(
      shops.degraded.domain,
    );
    // The deliveries figure leads to the inbox, filterable by shop.
    await page.goto(`${harness.url}/admin/ui/deliveries?shop=${shops.degraded.domain}`);
    await expect(page.locator('tbody tr').allTextContents()).resolves.toEqual([
      expect.stringContaining('7390000888001'),
    ]);
    await page.goto(`${harness.url}/admin/ui/deliveries?shop=${shops.healthy.domain}`);
    await expect(page.locator('tbody tr').allTextContents()).resolves.toEqual(['None.']);
    await page.close();
  });

  it('lists the shops with auth state, mode, catalog key and subscriptions', async () => {
    const page = await signedIn(1280);
    await page.goto(`${harness.url}/admin/ui/shops`);
    await expect(
      page.locator(`tr[data-shop="${shops.uninstalled.domain}"] .auth`).textContent(),
    ).resolves.toContain('uninstalled');
    await expect(page.locator(`tr[data-shop="${shops.healthy.domain}"] .mode`).textContent()).resolves.toBe(
      'live',
    );
    await page.close();
  });

  for (const [name, path] of [
    ['overview', '/admin/ui'],
    ['shops', '/admin/ui/shops'],
    ['failures', '/admin/ui/failures'],
    ['deliveries', '/admin/ui/deliveries'],
    ['write-backs', '/admin/ui/write-backs'],
    ['syncs', '/admin/ui/syncs'],
    ['enrichment-polls', '/admin/ui/enrichment-polls'],
    ['catalog-calls', '/admin/ui/catalog-calls'],
    ['runs', '/admin/ui/runs'],
    ['alerts', '/admin/ui/alerts'],
  ] as const) {
    it(`${name}: screenshots at 1280 and 390 px, no serious accessibility violation, no sideways page scroll`, async () => {
      for (const width of [1280, 390]) {
        const page = await signedIn(width);
        const answer = await page.goto(`${harness.url}${path}`);
        expect(answer?.status()).toBe(200);
        // The page itself never scrolls sideways: wide tables scroll inside their wrapper.
        expect(await screenshotAt(page, name, width)).toBeLessThanOrEqual(0);
        expect(await seriousViolations(page)).toEqual([]);
        await page.close();
      }
    });
  }

  it("keeps an open failure's state, subject and actions in view at 390 px (less important columns left out)", async () => {
    const page = await signedIn(390);
    await page.goto(`${harness.url}/admin/ui/failures?shop=${shops.degraded.domain}`);
    for (const cell of ['td.state', 'td:has(a.product)', 'td:has(button)']) {
      const box = await page.locator(`tbody tr[data-failure-id] ${cell}`).boundingBox();
      expect(box, cell).not.toBeNull();
      expect((box?.x ?? 0) + (box?.width ?? 0), cell).toBeLessThanOrEqual(390);
    }
    await expect(page.locator('tbody tr[data-failure-id] td.state').textContent()).resolves.toBe('open');
    await expect(page.locator('thead th', { hasText: 'Attempts' }).isVisible()).resolves.toBe(false);
    await page.close();
  });

  it('reaches every control of the overview with Tab alone, each with a visible focus style', async () => {
    const page = await signedIn(1280);
    const walk = await tabThrough(page);
    // Its links to the lists behind the figures and charts, and the sign-out button, among them.
    for (const control of [
      /^\d+: a Skip to content$/,
      /^\d+: a Catalog budget used/,
      /^\d+: a Enrichment lag/,
      /^\d+: a Catalog calls and 429 answers per minute, last \d+ minutes$/,
      /^\d+: button Sign out$/,
    ]) {
      expect(walk.controls).toContainEqual(expect.stringMatching(control));
    }
    expect(walk.missed).toEqual([]);
    expect(walk.unmarked).toEqual([]);
    await page.close();
  });

  it('reaches the skip link, then the navigation, with Tab', async () => {
    const page = await signedIn(1280);
    await page.goto(`${harness.url}/admin/ui/shops`);
    const focused = () => page.evaluate('document.activeElement && document.activeElement.textContent');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Skip to content');
    const labels: unknown[] = [];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      labels.push(await focused());
    }
    expect(labels).toEqual([
      'Overview',
      'Shops',
      'Products',
      'Failures',
      'Runs',
      'Drift',
      'Alerts',
      'Queues',
    ]);
    // The skip link moves the focus to the content.
    for (let i = 0; i < 8; i++) await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement.id')).toBe('main');
    await page.close();
  });
});
