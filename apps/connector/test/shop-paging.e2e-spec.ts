import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/operations/cli/connector-cli.js';
import { type Answer, call } from './support/admin-client.js';
import { uiPage, uiSessionCookie } from './support/admin-ui-session.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { productUpdateBody, type TestShop, testShop } from './support/test-shop.js';

interface OverviewPage {
  shops: Array<{ shop: string; state: string }>;
  total: number;
  offset: number;
  limit: number;
  stateCounts: Record<string, number>;
}
interface ShopListPage {
  shops: Array<{ shop: string; state: string }>;
  total: number;
  stateCounts: Record<string, number>;
}

// Operating many shops (issue 45): five shops, two failing (an operator's pause, an uninstall),
// one degraded (a revoked token: an open failure), two healthy; the overview lists them worst
// first, then by domain, filtered by state, searched by domain and paged, on the API, the page
// and likewise the shops list (by auth state) and `connector shops`.
describe('many shops: worst first, filtered, searched, paged', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  const base = testShop().domain.replace('.myshopify.com', '');
  const named = (suffix: string) => testShop({ domain: `${base}-${suffix}.myshopify.com` });
  const shops = {
    okA: named('a-ok'),
    okB: named('b-ok'),
    slow: named('c-slow'),
    paused: named('d-paused'),
    gone: named('e-gone'),
  };
  const token = 'admin-paging-token-0123456789abcdef';
  const admin = <T>(path: string): Promise<Answer<T>> => call<T>(harness.url, 'GET', path, token);
  const domains = (list: { shops: Array<{ shop: string }> }) => list.shops.map((s) => s.shop);
  const rowsOf = (html: string) => [...html.matchAll(/<tr data-shop="([^"]+)"/g)].map((m) => m[1]);
  const cli = async (...args: string[]) => {
    const printed: string[] = [];
    const out = {
      line: (t = '') => printed.push(t),
      warn: (t: string) => printed.push(t),
      progress: process.stderr,
    };
    const code = await runCli(
      ['--url', harness.url, 'shops', ...args],
      { CONNECTOR_ADMIN_TOKEN: token },
      out,
    );
    return { code, printed };
  };
  const shopLines = (printed: string[]) =>
    printed.filter((line) => /^\S+\.myshopify\.com: /.test(line)).map((line) => line.split(':')[0]);

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    for (const shop of Object.values(shops)) await sandboxes.addShop(shop);
    harness = await startConnector({
      shops: [
        shops.gone,
        shops.okB,
        { ...shops.slow, accessToken: 'shpat_revoked' },
        shops.paused,
        shops.okA,
      ],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: (await sandboxes.account()).apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      env: { CONNECTOR_ADMIN_TOKEN: token, CONNECTOR_MEDIA_ENABLED: 'false' },
    });
    await harness.deliver({
      shop: shops.slow,
      body: productUpdateBody('7390000888101', new Date().toISOString()),
    });
    expect(
      (
        await call(
          harness.url,
          'POST',
          `/admin/sync/pause?shop=${shops.paused.domain}&reason=maintenance`,
          token,
        )
      ).status,
    ).toBe(200);
    expect((await harness.deliver({ shop: shops.gone, topic: 'app/uninstalled', body: '{}' })).status).toBe(
      200,
    );
    await eventually(async () => {
      const view = (await admin<OverviewPage>('/admin/overview')).body;
      return view.stateCounts.degraded === 1 && view.stateCounts.failing === 2 ? view : undefined;
    });
  });
  afterAll(async () => {
    await harness?.close();
    await sandboxes?.close();
  });

  const d = (...list: TestShop[]) => list.map((s) => s.domain);

  it('GET /admin/overview: worst first, then by domain; counts every shop; filters, searches and pages', async () => {
    const all = await admin<OverviewPage>('/admin/overview');
    expect(all.status).toBe(200);
    expect(domains(all.body)).toEqual(d(shops.paused, shops.gone, shops.slow, shops.okA, shops.okB));
    expect(all.body).toMatchObject({
      total: 5,
      offset: 0,
      limit: 50,
      stateCounts: { failing: 2, degraded: 1, healthy: 2 },
    });
    const failing = await admin<OverviewPage>('/admin/overview?state=failing');
    expect(domains(failing.body)).toEqual(d(shops.paused, shops.gone));
    expect(failing.body).toMatchObject({ total: 2, stateCounts: { failing: 2, degraded: 1, healthy: 2 } });
    expect(domains((await admin<OverviewPage>(`/admin/overview?q=${base.toUpperCase()}-B`)).body)).toEqual(
      d(shops.okB),
    );
    const second = await admin<OverviewPage>('/admin/overview?limit=2&page=2');
    expect(domains(second.body)).toEqual(d(shops.slow, shops.okA));
    expect(second.body).toMatchObject({ total: 5, offset: 2, limit: 2 });
    expect(domains((await admin<OverviewPage>('/admin/overview?limit=2&offset=4')).body)).toEqual(
      d(shops.okB),
    );
    for (const bad of ['state=broken', 'limit=0', 'limit=501', 'offset=-1', 'page=0', 'limit=two'])
      expect((await admin(`/admin/overview?${bad}`)).status, bad).toBe(400);
  });

  it('GET /admin/shops: worst auth state first, filtered, searched, paged', async () => {
    const all = await admin<ShopListPage>('/admin/shops');
    expect(domains(all.body)).toEqual(d(shops.gone, shops.okA, shops.okB, shops.slow, shops.paused));
    expect(all.body).toMatchObject({ total: 5, stateCounts: { uninstalled: 1, active: 4, needs_reauth: 0 } });
    expect(domains((await admin<ShopListPage>('/admin/shops?state=uninstalled')).body)).toEqual(
      d(shops.gone),
    );
    expect(domains((await admin<ShopListPage>('/admin/shops?q=-ok.&limit=1&page=2')).body)).toEqual(
      d(shops.okB),
    );
    expect((await admin('/admin/shops?state=failing')).status).toBe(400);
  });

  it('the overview and shops pages: counts, a filter form, pages of shops', async () => {
    const cookie = await uiSessionCookie(harness.url, token);
    const overview = await uiPage(harness.url, cookie, '/admin/ui');
    expect(overview.status).toBe(200);
    expect(rowsOf(overview.html)).toEqual(d(shops.paused, shops.gone, shops.slow, shops.okA, shops.okB));
    expect(overview.html).toMatch(
      /data-state-count="failing" href="\/admin\/ui\?state=failing">2 failing<\/a>, <a[^>]*>1 degraded<\/a>, <a[^>]*>2 healthy</,
    );
    expect(overview.html).toContain('<form method="get" action="/admin/ui" class="shop-filter">');
    expect(rowsOf((await uiPage(harness.url, cookie, '/admin/ui?state=degraded')).html)).toEqual(
      d(shops.slow),
    );
    expect(rowsOf((await uiPage(harness.url, cookie, `/admin/ui?q=${base}-a`)).html)).toEqual(d(shops.okA));
    const paged = await uiPage(harness.url, cookie, '/admin/ui?limit=2&page=2');
    expect(rowsOf(paged.html)).toEqual(d(shops.slow, shops.okA));
    expect(paged.html).toContain(
      'Shops 3 to 4 of 5; pages: <a data-page="1" href="/admin/ui?limit=2">1</a> <strong aria-current="page">2</strong> <a data-page="3" href="/admin/ui?limit=2&amp;page=3">3</a>',
    );
    // The failures inbox's old address still leads there.
    const old = await uiPage(harness.url, cookie, '/admin/ui?state=open');
    expect(old.status).toBe(303);
    const shopsPage = await uiPage(harness.url, cookie, '/admin/ui/shops?state=uninstalled');
    expect(rowsOf(shopsPage.html.split('<h2')[0] ?? '')).toEqual(d(shops.gone));
    expect(shopsPage.html).toContain('>1 uninstalled</a>');
  });

  it('connector shops: --state, --q, --limit with --page or --offset', async () => {
    const gone = await cli('--state', 'uninstalled');
    expect(gone.code, gone.printed.join('\n')).toBe(0);
    expect(shopLines(gone.printed)).toEqual(d(shops.gone));
    expect(gone.printed).toContain('shops 1 to 1 of 1 (0 needs_reauth, 1 uninstalled, 0 redacted, 4 active)');
    expect(shopLines((await cli('--q', `${base}-c`)).printed)).toEqual(d(shops.slow));
    expect(shopLines((await cli('--limit', '2', '--page', '2')).printed)).toEqual(d(shops.okB, shops.slow));
    expect(shopLines((await cli('--limit', '2', '--offset', '4')).printed)).toEqual(d(shops.paused));
    expect((await cli('--state', 'bogus')).code).toBe(2);
  });
});
