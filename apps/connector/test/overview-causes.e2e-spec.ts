import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '#testing/catalog-sandbox';
import { runCli } from '../src/operations/cli/connector-cli.js';
import type { CliOutput } from '../src/operations/cli/context/cli-context.js';
import type { OverviewDto, ShopOverviewDto } from '../src/operations/overview/overview.dto.js';
import { call } from './support/admin-client.js';
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

// What the operator reads of a shop's state, true to the evidence, on the three places it is
// shown (GET /admin/overview, the overview page, `connector status`), each non-healthy state
// with its cause in words and its next step. The demo's story on a shop of the demo mapping
// (a merchant's product synced, enriched in the catalog, polled), then 10 quiet minutes on the
// connector's moved clock, its 60 s poll running each minute: healthy throughout (the poll lag
// is the time since the last poll finished its work, not since the catalog last enriched
// something). Then a second shop whose catalog account answers 500 to every product create
// (the catalog sandbox's fault switch): failing, the cause names the 500s and their share of
// the product writes, and the next step where to look and what to run.
describe('overview: true states with their causes and next steps', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  let account: TestAccount;
  let broken: TestAccount;
  let dir: string;
  let cookie: string;
  const clock = new MovableClock();
  const token = `causes-${randomBytes(16).toString('hex')}`;
  const shops = { demo: testShop(), failing: testShop() };
  const states = async () =>
    new Map(
      (await call<OverviewDto>(harness.url, 'GET', '/admin/overview', token)).body.shops.map((s) => [
        s.shop,
        s,
      ]),
    );
  const row = (html: string, shop: TestShop) => {
    const found = new RegExp(
      `<tr data-shop="${shop.domain.replaceAll('.', '\\.')}">[\\s\\S]*?<td class="state-(\\w+)">\\w+</td><td class="reasons">([^<]*)</td><td class="next">(.*?)</td>`,
    ).exec(html);
    return { state: found?.[1], reasons: textOf(found?.[2] ?? ''), next: textOf(found?.[3] ?? '') };
  };
  const status = async () => {
    const lines: string[] = [];
    const out: CliOutput = {
      line: (t = '') => lines.push(t),
      warn: (t) => lines.push(t),
      progress: process.stderr,
    };
    const code = await runCli(['--url', harness.url, 'status'], { CONNECTOR_ADMIN_TOKEN: token }, out);
    return { code, text: lines.join('\n') };
  };

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    for (const shop of Object.values(shops)) await sandboxes.addShop(shop);
    account = await sandboxes.account();
    broken = await sandboxes.account();
    dir = await mkdtemp(join(tmpdir(), 'connector-causes-'));
    const demo = join(dir, 'demo.yaml');
    await writeFile(demo, (await readFile(DEMO_MAPPING, 'utf8')).replace(/^shop: .*$/m, ''));
    harness = await startConnector({
      shops: [shops.demo, shops.failing],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: account.apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      clock,
      env: {
        CONNECTOR_ADMIN_TOKEN: token,
        CONNECTOR_MEDIA_ENABLED: 'false',
        // The demo's interval: a poll a minute.
        CONNECTOR_ENRICHMENT_POLL_INTERVAL_MS: String(MINUTE),
        CONNECTOR_ENRICHMENT_WATCHLIST_INTERVAL_MS: '0',
        [`CONNECTOR_SHOP_${shops.demo.key}_MAPPING_FILE`]: demo,
        [`CONNECTOR_SHOP_${shops.failing.key}_MAPPING_FILE`]: demo,
        [`CONNECTOR_SHOP_${shops.failing.key}_CATALOG_API_KEY`]: broken.apiKey,
      },
    });
    cookie = await uiSessionCookie(harness.url, token);
  });
  afterAll(async () => {
    await harness?.close();
    await sandboxes?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('says healthy for 10 quiet minutes after the demo on a moved clock, its poll on time', async () => {
    // The demo's story: the merchant's shirt synced, enriched in the catalog, polled.
    const productId = await merchantProduct(shops.demo, 'Linen shirt');
    const skuId = await eventually(async () => {
      const { rows } = await harness.db.query<{ sku_id: string | null }>(
        `SELECT sku_id FROM "${harness.schema}".sku_map
          WHERE shop = $1 AND shopify_product_id = $2 AND state = 'live' AND shopify_variant_id IS NULL`,
        [shops.demo.domain, productId],
      );
      return rows[0]?.sku_id ?? undefined;
    }, 30_000);
    await enrichedAt(sandboxes, account, [skuId], Date.now());
    await poll();
    expect((await states()).get(shops.demo.domain)?.state).toBe('healthy');

    // Then nothing happens for 10 minutes: nothing new is enriched, the poll runs each minute.
    const seen: Array<Pick<ShopOverviewDto, 'state' | 'reasons' | 'cause' | 'next'>> = [];
    for (let minute = 1; minute <= 10; minute++) {
      clock.offsetMs = minute * MINUTE;
      await poll();
      const demo = (await states()).get(shops.demo.domain) as ShopOverviewDto;
      seen.push({ state: demo.state, reasons: demo.reasons, cause: demo.cause, next: demo.next });
    }
    expect(seen).toEqual(
      Array.from({ length: 10 }, () => ({
        state: 'healthy',
        reasons: ['everything gets through'],
        cause: null,
        next: null,
      })),
    );
    const html = (await uiPage(harness.url, cookie, '/admin/ui')).html;
    expect(row(html, shops.demo)).toEqual({ state: 'healthy', reasons: 'everything gets through', next: '' });
    const cli = await status();
    expect(cli.code).toBe(0);
    expect(cli.text).toContain(`${shops.demo.domain}: healthy\n  everything gets through`);
  });

  it('says failing when the catalog answers 500 to every product write, naming the 500s, their share and the next step', async () => {
    await sandboxes.catalog
      .controls(broken.id)
      .setFaults({ error500: { method: 'POST', path: '/v1/products' } });
    await merchantProduct(shops.failing, 'Wool scarf');
    await merchantProduct(shops.failing, 'Silk tie');
    const cause = /^the catalog answers 500 to 100% of product writes \((\d+) of \1 in the last 5 min\)$/;
    const failing = await eventually(async () => {
      const shop = (await states()).get(shops.failing.domain);
      return shop?.state === 'failing' && shop.cause?.code === 'catalog_server_errors' && shop;
    }, 45_000);
    expect(failing.cause?.text).toMatch(cause);
    expect(failing.reasons[0]).toBe(failing.cause?.text);
    const command = `npm run connector -- replay --all --shop ${shops.failing.domain}`;
    expect(failing.next).toEqual({
      text: expect.stringMatching(/^The catalog's own fault: its calls retry by themselves\./),
      href: '/admin/ui/catalog-calls?hours=1',
      command,
    });
    // The demo shop, on another catalog account, still gets through.
    expect((await states()).get(shops.demo.domain)?.state).toBe('healthy');

    const html = (await uiPage(harness.url, cookie, '/admin/ui')).html;
    const shown = row(html, shops.failing);
    expect(shown.state).toBe('failing');
    expect(shown.reasons).toMatch(
      /^the catalog answers 500 to 100% of product writes \(\d+ of \d+ in the last 5 min\)/,
    );
    expect(shown.next).toContain(failing.next?.text as string);
    expect(shown.next).toContain('<a href="/admin/ui/catalog-calls?hours=1">catalog calls</a>');
    expect(shown.next).toContain(`<code>${command}</code>`);

    const cli = await status();
    expect(cli.code).toBe(0);
    expect(cli.text).toMatch(
      new RegExp(
        `^${shops.failing.domain.replaceAll('.', '\\.')}: failing\\n  failing: the catalog answers 500 to 100% of product writes \\(\\d+ of \\d+ in the last 5 min\\)\\n    next: The catalog's own fault: .+ ${harness.url.replaceAll('.', '\\.')}/admin/ui/catalog-calls\\?hours=1  \\$ ${command}$`,
        'm',
      ),
    );
    expect(cli.text).toContain(`${shops.demo.domain}: healthy`);
  });

  it("gives the API's errors their next step as a hint", async () => {
    const refused = await call<{ error: { code: string; hint?: string } }>(
      harness.url,
      'GET',
      '/admin/overview',
      'not-the-admin-token-of-this-connector',
    );
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({
      code: 'unauthorized',
      hint: expect.stringMatching(/^Send `Authorization: Bearer <CONNECTOR_ADMIN_TOKEN>`/),
    });
  });

  /** An admin poll, waited for until it finished. */
  async function poll(): Promise<void> {
    const started = await call<{ id: string }>(harness.url, 'POST', '/admin/enrichment/poll', token);
    expect(started.status).toBe(200);
    await eventually(async () => {
      const run = await call<{ status: string }>(
        harness.url,
        'GET',
        `/admin/enrichment/poll/${started.body.id}`,
        token,
      );
      if (run.body.status === 'failed') throw new Error(`poll failed: ${run.text}`);
      return run.body.status === 'finished';
    }, 30_000);
  }

  /** A product the merchant creates, delivered to the connector: its id. */
  async function merchantProduct(shop: TestShop, title: string): Promise<string> {
    const created = await sandboxes.merchant(shop, 'POST', 'products.json', {
      product: {
        title,
        vendor: 'Acme',
        product_type: 'Shirts',
        options: [{ name: 'Size' }],
        variants: [{ option1: 'Small', price: '35.00', barcode: '4006381333931' }],
      },
    });
    const productId = String((created.body.product as { id: number }).id);
    const delivered = await harness.deliver({
      shop,
      body: productUpdateBody(productId, new Date().toISOString(), title),
    });
    expect(delivered.status).toBe(200);
    return productId;
  }
});
