import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '#testing/catalog-sandbox';
import { type Answer, call } from './support/admin-client.js';
import { uiPage, uiSessionCookie } from './support/admin-ui-session.js';
import { enrichedAt } from './support/catalog-enrichment.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { MovableClock } from './support/movable-clock.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { productUpdateBody, type TestShop, testShop } from './support/test-shop.js';

const DEMO_MAPPING = join(process.cwd(), 'apps/connector/mappings/demo.yaml');
const MINUTE = 60_000;

/** HTML text as read (the pages escape &, <, >, " and '). */
function textOf(text: string): string {
  return text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');
}

interface ShopState {
  shop: string;
  state: string;
  reasons: string[];
  cause: { code: string; text: string } | null;
  next: { text: string; href: string | null; command: string | null } | null;
  authState: string;
  backlog: number;
  costBucketUse: number | null;
}

// Every shop state rule of the overview (the connector's docs/admin-api.md, "Shop states"), each driven by
// what causes it in a running connector against both sandboxes: Shopify refusing a shop's
// credentials (needs_reauth), an uninstall webhook, an operator's pause, a mapping that does not
// fit its catalog account, a sync that has not finished for more than 5 minutes (the connector's
// clock moved on), the catalog breaker open for a refused key, no enrichment poll finished for
// more than twice its interval (the connector's clock moved on: an enrichment completed long ago
// is no lag), an open failure; and a shop where everything gets through. Read from GET
// /admin/overview and the overview page, each with its reason in words, its cause and next step. Then the lists behind the figures (sync records, failures,
// deliveries, enrichment polls, catalog calls), filtered by shop and by time as the connector's
// clock moves on.
describe('overview: every shop state rule, driven through the running connector', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  let account: TestAccount;
  let dir: string;
  let cookie: string;
  const clock = new MovableClock();
  const token = `states-${randomBytes(12).toString('hex')}`;
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const shops = {
    healthy: testShop(),
    reauth: testShop(),
    uninstalled: testShop(),
    paused: testShop(),
    mapping: testShop(),
    backlog: testShop(),
    breaker: testShop(),
    failures: testShop(),
  };
  const admin = <T = Record<string, unknown>>(method: string, path: string): Promise<Answer<T>> =>
    call<T>(harness.url, method, path, token);
  const states = async () =>
    new Map(
      (await admin<{ shops: ShopState[] }>('GET', '/admin/overview')).body.shops.map((s) => [s.shop, s]),
    );
  /** The overview page's row of a shop: its state, its reasons and its next step, as shown. */
  const row = (html: string, shop: TestShop) => {
    const found = new RegExp(
      `<tr data-shop="${shop.domain.replaceAll('.', '\\.')}">[\\s\\S]*?<td class="state-(\\w+)">\\w+</td><td class="reasons">([^<]*)</td><td class="next">(.*?)</td>`,
    ).exec(html);
    return {
      state: found?.[1],
      reasons: found?.[2] === undefined ? undefined : textOf(found[2]),
      next: found?.[3] === undefined ? undefined : textOf(found[3]),
    };
  };
  const settled = (rows: Map<string, ShopState>, shop: TestShop) => rows.get(shop.domain);

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    for (const shop of Object.values(shops)) await sandboxes.addShop(shop);
    account = await sandboxes.account();
    dir = await mkdtemp(join(tmpdir(), 'connector-states-'));
    const demo = join(dir, 'demo.yaml');
    await writeFile(demo, (await readFile(DEMO_MAPPING, 'utf8')).replace(/^shop: .*$/m, ''));
    const unfit = join(dir, 'unfit.yaml');
    await writeFile(
      unfit,
      'version: 1\nproduct:\n  title: name\n  vendor: brand\n  handle: noSuchAttribute\n',
    );
    harness = await startConnector({
      shops: [
        shops.healthy,
        shops.reauth,
        shops.uninstalled,
        shops.paused,
        shops.mapping,
        shops.backlog,
        shops.breaker,
        // Its token is revoked: its sync fails at once, permanently (an open failure).
        { ...shops.failures, accessToken: 'shpat_revoked' },
      ],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: account.apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      clock,
      // The backlog shop's sync reads Shopify, then does not finish until the test ends.
      syncHooks: {
        afterShopifyRead: async (subject) => {
          if (subject.shop === shops.backlog.domain) await held;
        },
      },
      env: {
        CONNECTOR_ADMIN_TOKEN: token,
        CONNECTOR_MEDIA_ENABLED: 'false',
        CONNECTOR_SYNC_CONCURRENCY: '4',
        CONNECTOR_ENRICHMENT_POLL_INTERVAL_MS: String(10 * MINUTE),
        CONNECTOR_ENRICHMENT_WATCHLIST_INTERVAL_MS: '0',
        CONNECTOR_MAPPING_RECHECK_MS: '100',
        [`CONNECTOR_SHOP_${shops.healthy.key}_MAPPING_FILE`]: demo,
        [`CONNECTOR_SHOP_${shops.mapping.key}_MAPPING_FILE`]: unfit,
        // Installed through OAuth, but never installed: Shopify has no token to renew for it.
        [`CONNECTOR_SHOP_${shops.reauth.key}_ACCESS_TOKEN`]: undefined,
        [`CONNECTOR_SHOP_${shops.reauth.key}_AUTH`]: 'installed',
        CONNECTOR_SHOPIFY_CLIENT_ID: sandboxes.shopify.clientId,
        CONNECTOR_SHOPIFY_CLIENT_SECRET: sandboxes.shopify.appSecret,
        CONNECTOR_ENCRYPTION_KEYS: randomBytes(32).toString('base64'),
        // A key the catalog does not know: the breaker for it opens at the boot check.
        [`CONNECTOR_SHOP_${shops.breaker.key}_CATALOG_API_KEY`]: `unknown-${randomBytes(8).toString('hex')}`,
      },
    });
    const now = new Date().toISOString();
    for (const [shop, productId] of [
      [shops.failures, '7390000999001'],
      [shops.reauth, '7390000999002'],
      [shops.backlog, '7390000999003'],
    ] as const) {
      expect((await harness.deliver({ shop, body: productUpdateBody(productId, now) })).status).toBe(200);
    }
    expect(
      (await admin('POST', `/admin/sync/pause?shop=${shops.paused.domain}&reason=maintenance`)).status,
    ).toBe(200);
    expect(
      (await harness.deliver({ shop: shops.uninstalled, topic: 'app/uninstalled', body: '{}' })).status,
    ).toBe(200);
    cookie = await uiSessionCookie(harness.url, token);
  });
  afterAll(async () => {
    release();
    await harness?.close();
    await sandboxes?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('shows each rule with its reason in words, on GET /admin/overview and the overview page', async () => {
    // Now: every rule but the backlog's age and the poll's lag.
    const first = await eventually(async () => {
      const all = await states();
      const ready =
        settled(all, shops.reauth)?.authState === 'needs_reauth' &&
        settled(all, shops.failures)?.state === 'degraded' &&
        settled(all, shops.uninstalled)?.state === 'failing' &&
        settled(all, shops.mapping)?.state === 'failing' &&
        settled(all, shops.breaker)?.state === 'degraded' &&
        settled(all, shops.backlog)?.backlog === 1;
      return ready && all;
    }, 30_000);
    const healthy = settled(first, shops.healthy);
    expect(healthy).toMatchObject({ state: 'healthy', reasons: ['everything gets through'] });
    // Each with its cause (the causes table's code) and the next step's page.
    const expected: Array<[TestShop, string, RegExp, string | null, string | null]> = [
      [
        shops.reauth,
        'failing',
        /^Shopify refuses its token: it needs to be authorised again \(not installed/,
        'shopify_token_refused',
        '/admin/ui/shops',
      ],
      [shops.uninstalled, 'failing', /^the app is uninstalled$/, 'app_uninstalled', '/admin/ui/shops'],
      [
        shops.paused,
        'failing',
        /^syncing is paused by an operator \(maintenance\)$/,
        'operator_pause',
        `/admin/ui/shops/${shops.paused.domain}/resume`,
      ],
      [
        shops.mapping,
        'failing',
        /^its mapping is invalid \(.*noSuchAttribute/s,
        'mapping_invalid',
        `/admin/ui/shops/${shops.mapping.domain}/preview`,
      ],
      [
        shops.breaker,
        'degraded',
        /^the catalog breaker is (open|half-open)$/,
        'catalog_breaker_open',
        '/admin/ui/catalog-calls?hours=1',
      ],
      // The revoked token's failed sync holds its delivery (no job: it waits for a replay).
      [
        shops.failures,
        'degraded',
        /^open failures: 1 sync-product: Shopify refuses the shop's token \(401\); 1 delivery held until replayed$/,
        'shopify_token_refused',
        '/admin/ui/shops',
      ],
      // A sync under way for a minute is no rule's business yet.
      [shops.backlog, 'healthy', /^everything gets through$/, null, null],
    ];
    let html = (await uiPage(harness.url, cookie, '/admin/ui')).html;
    for (const [shop, state, reason, code, href] of expected) {
      const found = settled(first, shop);
      expect(found?.state, shop.domain).toBe(state);
      expect(found?.reasons[0], shop.domain).toMatch(reason);
      expect(found?.cause?.code ?? null, shop.domain).toBe(code);
      expect(found?.cause?.text ?? null, shop.domain).toBe(code === null ? null : found?.reasons[0]);
      expect(found?.next?.href ?? null, shop.domain).toBe(href);
      expect(row(html, shop).state, shop.domain).toBe(state);
      expect(row(html, shop).reasons, shop.domain).toMatch(reason);
      // The page's next step: the words, the link, the command.
      expect(row(html, shop).next, shop.domain).toContain(found?.next?.text ?? '');
      if (href !== null) expect(row(html, shop).next, shop.domain).toContain(`<a href="${href}">`);
    }
    expect(row(html, shops.healthy)).toEqual({
      state: 'healthy',
      reasons: 'everything gets through',
      next: '',
    });
    expect(settled(first, shops.healthy)).toMatchObject({ cause: null, next: null });

    // The catalog finished an enrichment half an hour ago (its write became visible late): the
    // poll's checkpoint is that old, more than twice the poll's 10 minute interval.
    const productId = await merchantProduct();
    const skuId = await eventually(async () => {
      const { rows } = await harness.db.query<{ sku_id: string | null }>(
        `SELECT sku_id FROM "${harness.schema}".sku_map
          WHERE shop = $1 AND shopify_product_id = $2 AND state = 'live' AND shopify_variant_id IS NULL`,
        [shops.healthy.domain, productId],
      );
      return rows[0]?.sku_id ?? undefined;
    }, 30_000);
    await enrichedAt(sandboxes, account, [skuId], Date.now() - 30 * MINUTE);
    const poll = await admin<{ id: string }>('POST', '/admin/enrichment/poll');
    expect(poll.status).toBe(200);
    await eventually(async () => {
      const status = await admin<{ status: string }>('GET', `/admin/enrichment/poll/${poll.body.id}`);
      if (status.body.status === 'failed') throw new Error(`poll failed: ${status.text}`);
      return status.body.status === 'finished';
    }, 60_000);
    // Six minutes later by the connector's clock: the backlog shop's delivery still waits. The
    // healthy shop's catalog last enriched something half an hour ago, but its poll finished 6
    // minutes ago, less than twice the poll's 10 minute interval: a quiet catalog is no lag.
    clock.offsetMs = 6 * MINUTE;
    const later = await eventually(async () => {
      const all = await states();
      return settled(all, shops.backlog)?.state === 'failing' && all;
    }, 30_000);
    expect(settled(later, shops.healthy)).toMatchObject({
      state: 'healthy',
      reasons: ['everything gets through'],
      cause: null,
    });
    const backlog = /^1 delivery waits for its sync, for [67] min$/;
    expect(settled(later, shops.backlog)?.reasons).toEqual([expect.stringMatching(backlog)]);
    expect(settled(later, shops.backlog)?.next?.href).toBe(
      `/admin/ui/deliveries?shop=${shops.backlog.domain}&state=received`,
    );
    html = (await uiPage(harness.url, cookie, '/admin/ui')).html;
    // The shirt's sync read Shopify: its shop's cost bucket use is known, and shown.
    const use = settled(later, shops.healthy)?.costBucketUse;
    expect(use).toBeGreaterThanOrEqual(0);
    expect(use).toBeLessThanOrEqual(1);
    expect(html).toMatch(
      new RegExp(
        `<tr data-shop="${shops.healthy.domain}">(?:(?!<tr)[\\s\\S])*?<td class="opt">\\d{1,3} %</td></tr>`,
      ),
    );
    expect(row(html, shops.healthy).state).toBe('healthy');
    expect(row(html, shops.backlog).state).toBe('failing');
    expect(row(html, shops.backlog).reasons).toMatch(new RegExp(backlog.source.slice(1, -1)));

    // 25 minutes later, no poll has finished its work since: more than twice the interval.
    clock.offsetMs = 25 * MINUTE;
    const lagging = await eventually(async () => {
      const all = await states();
      return settled(all, shops.healthy)?.state === 'degraded' && all;
    }, 30_000);
    const lag =
      /^no enrichment poll has finished its work for 2[56] min \(more than twice its 600 s interval\)$/;
    expect(settled(lagging, shops.healthy)?.reasons).toEqual([expect.stringMatching(lag)]);
    expect(settled(lagging, shops.healthy)?.cause?.code).toBe('poll_lag');
    expect(settled(lagging, shops.healthy)?.next?.href).toBe('/admin/ui/enrichment-polls?hours=24');
    expect(settled(lagging, shops.backlog)?.reasons).toEqual([
      expect.stringMatching(/^1 delivery waits for its sync, for 2[56] min$/),
    ]);
    html = (await uiPage(harness.url, cookie, '/admin/ui')).html;
    expect(row(html, shops.healthy).state).toBe('degraded');
    expect(row(html, shops.healthy).reasons).toMatch(new RegExp(lag.source.slice(1, -1)));
  });

  it('links every figure to the list behind it, each list filtered by shop and time', async () => {
    const shop = shops.failures.domain;
    const q = encodeURIComponent(shop);
    const overview = (await uiPage(harness.url, cookie, '/admin/ui')).html;
    for (const href of [
      `/admin/ui/syncs?shop=${q}`,
      `/admin/ui/failures?shop=${q}`,
      `/admin/ui/deliveries?shop=${q}&amp;state=received`,
      '/admin/ui/deliveries?hours=1',
      '/admin/ui/syncs',
      '/admin/ui/failures?hours=24',
      '/admin/ui/write-backs?hours=24',
      '/admin/ui/catalog-calls?hours=1',
      '/admin/ui/catalog-calls?hours=24',
      '/admin/ui/enrichment-polls?hours=24',
    ]) {
      expect(overview).toContain(`href="${href}"`);
    }
    const rows = async (path: string) => {
      const answer = await uiPage(harness.url, cookie, path);
      expect(answer.status, path).toBe(200);
      return [...answer.html.matchAll(/<tr data-(?:sync-record|failure-id)="\d+">/g)].length;
    };
    // The failed sync of the shop whose token Shopify refuses, and its open failure.
    expect(await rows(`/admin/ui/syncs?shop=${q}`)).toBe(1);
    expect(await rows(`/admin/ui/syncs?shop=${q}&outcome=failed`)).toBe(1);
    // A failed run's product can be ticked for a resync (the confirm page asks first).
    const syncs = (await uiPage(harness.url, cookie, `/admin/ui/syncs?shop=${q}`)).html;
    expect(syncs).toContain('<form id="resync-selection" method="get" action="/admin/ui/resync-selection">');
    expect(syncs).toContain(`name="item" value="${shop}:7390000999001"`);
    expect(await rows(`/admin/ui/syncs?shop=${q}&outcome=synced`)).toBe(0);
    expect(await rows(`/admin/ui/failures?shop=${q}&hours=1`)).toBe(1);
    expect(await rows(`/admin/ui/failures?shop=${encodeURIComponent(shops.healthy.domain)}`)).toBe(0);
    // The healthy shop's poll (the lag rule above): what it found and the lag it left, finished.
    // Failed polls (none expected, but a scheduled one may) show under every shop: left out here.
    const polls = async (path: string) => {
      const answer = await uiPage(harness.url, cookie, path);
      expect(answer.status, path).toBe(200);
      return [...answer.html.matchAll(/<tr data-poll="[^"]+">((?:(?!<tr)[\s\S])*)<\/tr>/g)]
        .map((m) => textOf((m[1] as string).replace(/<[^>]+>/g, ' ')).trim())
        .filter((text) => !text.includes('failed:'));
    };
    const healthy = encodeURIComponent(shops.healthy.domain);
    expect(await polls(`/admin/ui/enrichment-polls?shop=${healthy}`)).toContainEqual(
      expect.stringMatching(/\san operator\s+\S+\s+\d+\s+\d+\s+\d+\s+\d+\s+3\d min\s+finished$/),
    );
    expect(await polls(`/admin/ui/enrichment-polls?shop=${q}`)).toEqual([]);
    // The catalog calls of those minutes (the syncs, the poll), minute by minute.
    const calls = (await uiPage(harness.url, cookie, '/admin/ui/catalog-calls?hours=1')).html;
    expect(calls).toMatch(
      /<tr><td><time datetime="[\d-]+T[\d:]+Z" title="[\d-]+ [\d:]+ UTC">(just now|\d+ min ago)<\/time><\/td><td>[1-9]\d*<\/td><td class="(?:error)?">\d+<\/td><td>\d+ %<\/td><\/tr>/,
    );
    const deliveries = async (hours: number) =>
      (await uiPage(harness.url, cookie, `/admin/ui/deliveries?shop=${q}&hours=${hours}`)).html.includes(
        '7390000999001',
      );
    expect(await deliveries(1)).toBe(true);
    // Three hours later by the connector's clock: the last hour holds none of them, four hours do.
    clock.offsetMs = 3 * 60 * MINUTE;
    expect(await rows(`/admin/ui/syncs?shop=${q}&hours=1`)).toBe(0);
    expect(await rows(`/admin/ui/syncs?shop=${q}&hours=4`)).toBe(1);
    expect(await rows(`/admin/ui/failures?shop=${q}&hours=1`)).toBe(0);
    expect(await rows(`/admin/ui/failures?shop=${q}&hours=4`)).toBe(1);
    expect(await rows(`/admin/ui/failures?shop=${q}`)).toBe(1);
    expect(await deliveries(1)).toBe(false);
    expect(await deliveries(4)).toBe(true);
    expect(await polls(`/admin/ui/enrichment-polls?shop=${healthy}&hours=1`)).not.toContainEqual(
      expect.stringMatching(/\san operator\s/),
    );
    expect(await polls(`/admin/ui/enrichment-polls?shop=${healthy}&hours=4`)).toContainEqual(
      expect.stringMatching(/\san operator\s/),
    );
  });

  /** The demo shirt, created by the merchant and delivered to the connector: its id. */
  async function merchantProduct(): Promise<string> {
    const created = await sandboxes.merchant(shops.healthy, 'POST', 'products.json', {
      product: {
        title: 'Linen shirt',
        vendor: 'Acme',
        product_type: 'Shirts',
        options: [{ name: 'Size' }],
        variants: [{ option1: 'Small', price: '35.00', barcode: '4006381333931' }],
      },
    });
    const productId = String((created.body.product as { id: number }).id);
    const delivered = await harness.deliver({
      shop: shops.healthy,
      body: productUpdateBody(productId, new Date().toISOString(), 'Linen shirt'),
    });
    expect(delivered.status).toBe(200);
    return productId;
  }
});
