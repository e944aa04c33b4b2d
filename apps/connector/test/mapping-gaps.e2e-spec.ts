import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/operations/cli/connector-cli.js';
import type { CliOutput } from '../src/operations/cli/context/cli-context.js';
import { call } from './support/admin-client.js';
import { signedInPage, uiPage, uiSessionCookie } from './support/admin-ui-session.js';
import { startBrowser, type TestBrowser } from './support/browser.js';
import { eventually } from './support/connector-harness.js';
import { type SyncWorld, startSyncWorld } from './support/sync-world.js';
import { screenshotAt, seriousViolations } from './support/ui-audit.js';

/** HTML text as read (the pages escape &, <, >, " and '). */
function textOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&')
    .replace(/\s+/g, ' ');
}

interface ShopRow {
  shop: string;
  state: string;
  reasons: string[];
  mappingGaps: {
    products: number;
    knownProducts: number;
    share: number;
    reasons: Array<{ reason: string; products: number }>;
    reasonCount: number;
  };
}

const CATEGORY =
  'category "Apparel" is not a leaf category of the account (it has apparel-tops, apparel-bottoms): map it to one of its leaves in product.productType.values';
const NO_MODEL =
  "variant.barcode is empty in Shopify, so productModel is not set: the catalog's enrichment needs productModel and will fail";

// Issue 42: a product the mapping cannot enrich (its type "Apparel" is a category of the account
// that is not a leaf, and it has no barcode for productModel) syncs through the demo mapping, and
// its reasons show, in words, on the overview (API and page) with the shop degraded, on the
// mapping-gaps list (API and page, with its title), on its product page, in `connector status`
// and `connector mapping-gaps`, and in its sync record's detail. Fixed in Shopify (a leaf type,
// a barcode), its next sync clears them and the shop is healthy again.
describe('mapping gaps, end to end', () => {
  let world: SyncWorld;
  let cookie: string;
  let shirt: string;
  let belt: string;
  const token = `gaps-${'t'.repeat(32)}`;
  const admin = <T>(path: string) => call<T>(world.harness.url, 'GET', path, token);
  const shopRow = async () =>
    (await admin<{ shops: ShopRow[] }>('/admin/overview')).body.shops.find(
      (s) => s.shop === world.shop.domain,
    );
  const cli = async (...args: string[]) => {
    const lines: string[] = [];
    const out: CliOutput = {
      line: (text = '') => lines.push(text),
      warn: (text) => lines.push(text),
      progress: process.stderr,
    };
    const env = {
      CONNECTOR_SHOPS: world.shop.domain,
      [`CONNECTOR_SHOP_${world.shop.key}_ACCESS_TOKEN`]: world.shop.accessToken,
      [`CONNECTOR_SHOP_${world.shop.key}_WEBHOOK_SECRETS`]: world.shop.webhookSecrets.join(','),
      CONNECTOR_CATALOG_URL: world.sandboxes.catalog.url,
      CONNECTOR_CATALOG_API_KEY: world.account.apiKey,
      CONNECTOR_ADMIN_TOKEN: token,
    };
    const code = await runCli(['--url', world.harness.url, ...args], env, out);
    return { code, text: lines.join('\n') };
  };

  beforeAll(async () => {
    world = await startSyncWorld({
      env: {
        CONNECTOR_ADMIN_TOKEN: token,
        CONNECTOR_MEDIA_ENABLED: 'false',
        // No poll lag within the test: the state is the mapping gaps' alone.
        CONNECTOR_ENRICHMENT_POLL_INTERVAL_MS: String(10 * 60_000),
      },
    });
    cookie = await uiSessionCookie(world.harness.url, token);
  });
  afterAll(async () => {
    await world?.close();
  });

  it('counts the product on the overview (the shop degraded), lists it with its title, says why on its page and in the CLI', async () => {
    shirt = await world.createProduct({
      title: 'Linen Shirt',
      vendor: 'Acme',
      product_type: 'Shirts',
      variants: [{ price: '35.00', barcode: '4006381333931' }],
    });
    await world.settle(shirt);
    belt = await world.createProduct({
      title: 'Leather Belt',
      vendor: 'Acme',
      product_type: 'Apparel',
      variants: [{ price: '25.00' }],
    });
    await world.settle(belt);

    // The overview (API): the shop's figure, by reason, and its state with the cause in words.
    const row = await eventually(async () => {
      const found = await shopRow();
      return found?.mappingGaps.products === 1 && found.mappingGaps.knownProducts === 2 && found;
    }, 30_000);
    expect(row.mappingGaps).toEqual({
      products: 1,
      knownProducts: 2,
      share: 0.5,
      reasons: [
        { reason: CATEGORY, products: 1 },
        { reason: NO_MODEL, products: 1 },
      ],
      reasonCount: 2,
    });
    expect(row.state).toBe('degraded');
    expect(row.reasons).toEqual([
      `1 of 2 products cannot be fully enriched (50 %, more than 10 %): 1 product: ${CATEGORY} (and 1 other reason)`,
    ]);

    // The overview page: the count in the shop's row, the reasons grouped under "Mapping gaps".
    const overview = await uiPage(world.harness.url, cookie, '/admin/ui');
    expect(overview.status).toBe(200);
    const section = /<section class="mapping-gaps" data-shop="[^"]+">[\s\S]*?<\/section>/.exec(
      overview.html,
    )?.[0];
    expect(textOf(section ?? '')).toContain(`1 product cannot be fully enriched (50 % of 2)`);
    expect(textOf(section ?? '')).toContain(`1 product : ${CATEGORY}`);
    expect(textOf(section ?? '')).toContain(`1 product : ${NO_MODEL}`);
    expect(textOf(overview.html)).toContain('1 of 2 products cannot be fully enriched');

    // The list (API): the product, its title and its reasons.
    const list = await admin<{
      products: number;
      items: Array<{ productId: string; title: string; reasons: Array<{ reason: string; records: number }> }>;
      total: number;
    }>(`/admin/mapping-gaps?shop=${encodeURIComponent(world.shop.domain)}`);
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(1);
    expect(list.body.items).toEqual([
      {
        productId: belt,
        title: 'Leather Belt',
        blocked: false,
        recordedAt: expect.any(String),
        reasons: [
          { reason: CATEGORY, code: 'unknown-value', attribute: 'productCategory', records: 1 },
          { reason: NO_MODEL, code: 'enrichment-will-fail', attribute: 'productModel', records: 1 },
        ],
      },
    ]);
    const byReason = await admin<{ total: number }>(
      `/admin/mapping-gaps?shop=${encodeURIComponent(world.shop.domain)}&reason=${encodeURIComponent(NO_MODEL)}&limit=5`,
    );
    expect(byReason.body.total).toBe(1);
    expect((await admin('/admin/mapping-gaps?shop=elsewhere.myshopify.com')).status).toBe(400);

    // The list page: the reasons with their counts, the product by its title, linked.
    const page = await uiPage(world.harness.url, cookie, `/admin/ui/mapping-gaps?shop=${world.shop.domain}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain(
      `href="/admin/ui/products/${belt}?shop=${encodeURIComponent(world.shop.domain)}">Leather Belt</a>`,
    );
    expect(textOf(page.html)).toContain(`${CATEGORY} 1 product`);

    // The product page and the admin API's status: why, in words.
    const product = await uiPage(
      world.harness.url,
      cookie,
      `/admin/ui/products/${belt}?shop=${world.shop.domain}`,
    );
    expect(product.status).toBe(200);
    expect(textOf(product.html)).toContain(`Why the catalog cannot fully enrich it ${CATEGORY} ${NO_MODEL}`);

    // The command line: the product's reasons with the records each touches; the shop's list.
    const status = await cli('status', belt, '--shop', world.shop.domain);
    expect(status.code).toBe(0);
    expect(status.text).toContain(`  mapping gaps (2 reasons, as planned `);
    expect(status.text).toContain(`    ${CATEGORY} (1 record)`);
    expect(status.text).toContain(`    ${NO_MODEL} (1 record)`);
    expect(status.text).toContain(`: 1 mapping gap: ${CATEGORY}`);
    expect(status.text).not.toContain("see the product's status");
    const gaps = await cli('mapping-gaps', '--shop', world.shop.domain);
    expect(gaps.code).toBe(0);
    expect(gaps.text).toContain(`${world.shop.domain}: 1 product cannot be fully enriched`);
    expect(gaps.text).toContain(`  1 product: ${CATEGORY}`);
    expect(gaps.text).toContain(`  ${belt} Leather Belt`);
    expect((await cli('status', shirt, '--shop', world.shop.domain)).text).toContain('  mapping gaps: none');
  });

  it('shows the overview, the list and the product page at 1280 and 390 px with no serious accessibility violation', async () => {
    const browser: TestBrowser = await startBrowser({ bypassCSP: true });
    try {
      for (const [name, path] of [
        ['gaps-overview', '/admin/ui'],
        ['mapping-gaps', `/admin/ui/mapping-gaps?shop=${world.shop.domain}`],
        ['gaps-product', `/admin/ui/products/${belt}?shop=${world.shop.domain}`],
      ] as const) {
        for (const width of [1280, 390]) {
          const page = await signedInPage(browser, world.harness.url, token, width);
          expect((await page.goto(`${world.harness.url}${path}`))?.status()).toBe(200);
          expect(await screenshotAt(page, name, width)).toBeLessThanOrEqual(0);
          expect(await seriousViolations(page)).toEqual([]);
          await page.close();
        }
      }
    } finally {
      await browser.close();
    }
  });

  it('clears the product once fixed in Shopify (a leaf type, a barcode), and the shop is healthy again', async () => {
    // Fixed in Shopify: a leaf type and a barcode; its next sync clears the gaps, the shop is healthy.
    const current = await world.updateProduct(belt, {});
    const [variant] = current.variants as Array<{ id: number }>;
    await world.updateProduct(belt, {
      product_type: 'Shirts',
      variants: [{ id: variant?.id, barcode: '4006381333948' }],
    });
    await world.settle(belt);
    const fixed = await eventually(async () => {
      const found = await shopRow();
      return found?.mappingGaps.products === 0 && found;
    }, 30_000);
    expect(fixed.state).toBe('healthy');
    expect(fixed.reasons).toEqual(['everything gets through']);
    expect(fixed.mappingGaps).toEqual({
      products: 0,
      knownProducts: 2,
      share: 0,
      reasons: [],
      reasonCount: 0,
    });
    const after = await uiPage(world.harness.url, cookie, '/admin/ui');
    expect(after.html).toContain('No product has a mapping gap.');
    expect((await cli('status', belt, '--shop', world.shop.domain)).text).toContain('  mapping gaps: none');
  });
});
