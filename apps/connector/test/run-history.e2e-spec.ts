import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OverviewDto } from '../src/operations/overview/overview.dto.js';
import type { RunListDto, RunSummaryDto } from '../src/operations/runs/runs.dto.js';
import { QueueName } from '../src/platform/queues/queue-names.js';
import type { ResyncRunDto } from '../src/resync/resync-run.dto.js';
import { call } from './support/admin-client.js';
import { signedInPage, uiPage, uiSessionCookie } from './support/admin-ui-session.js';
import { startBrowser } from './support/browser.js';
import { eventually } from './support/connector-harness.js';
import { tickAtTurn } from './support/scheduled-turn.js';
import { type SyncWorld, startSyncWorld } from './support/sync-world.js';
import { screenshotAt, seriousViolations } from './support/ui-audit.js';

const TOKEN = `runs-${randomBytes(8).toString('hex')}`;
const REFUSAL = 'Attribute "name": refused, as "this test" wants';

/**
 * A catalog in front of the sandbox that refuses to create one product's record (400
 * `invalid_attribute_value`, a catalog's answer no retry changes): everything else goes through.
 */
class RefusingCatalog {
  refused: string | null = null;
  private server: Server | null = null;

  /** Listens in front of `target` (the sandbox's URL); resolves to its own URL. */
  async start(target: string): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const refused =
          this.refused !== null &&
          req.method === 'POST' &&
          req.url === '/v1/products' &&
          body.toString('utf8').includes(`:product:${this.refused}"`);
        if (refused) {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({ errorCode: 400, error: { code: 'invalid_attribute_value', message: REFUSAL } }),
          );
          return;
        }
        const headers = Object.fromEntries(
          Object.entries(req.headers).filter(
            (entry): entry is [string, string] =>
              typeof entry[1] === 'string' && !['host', 'connection', 'content-length'].includes(entry[0]),
          ),
        );
        fetch(`${target}${req.url}`, {
          method: req.method,
          headers,
          body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
        })
          .then(async (answer) => {
            const kept = [...answer.headers].filter(
              ([name]) =>
                !['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name),
            );
            res.writeHead(answer.status, Object.fromEntries(kept));
            res.end(Buffer.from(await answer.arrayBuffer()));
          })
          .catch(() => res.destroy());
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

// Issue 42, the run history: a whole-shop resync in which the catalog refuses one product's
// create lists created, updated, failed and skipped products; an operator's reconciliation the
// deletion it found; the error report (CSV) holds the refused product's line, quoted and with its
// formula-like title defused, from the API and from the web view's run history page.
describe('the run history', () => {
  let world: SyncWorld;
  const catalog = new RefusingCatalog();
  const ids: Record<'kept' | 'edited' | 'created' | 'refused' | 'gone', string> = {
    kept: '',
    edited: '',
    created: '',
    refused: '',
    gone: '',
  };
  let resync: RunSummaryDto;

  beforeAll(async () => {
    world = await startSyncWorld({
      catalogUrl: (sandbox) => catalog.start(sandbox),
      env: {
        CONNECTOR_ADMIN_TOKEN: TOKEN,
        CONNECTOR_MEDIA_ENABLED: 'false',
        CONNECTOR_SYNC_ATTEMPTS: '2',
      },
    });
    // The shop's first scheduled reconciliation (at its turn of the interval) records the
    // checkpoint the operator's reconciliation later starts from.
    await tickAtTurn(world.harness.connector.app, QueueName.RECONCILE, world.shop.domain);
    await eventually(async () => {
      const { rows } = await world.harness.db.query(
        `SELECT 1 FROM "${world.harness.schema}".reconcile_checkpoints WHERE shop = $1`,
        [world.shop.domain],
      );
      return rows.length === 1;
    }, 30_000);
  });
  afterAll(async () => {
    await world?.close();
    await catalog.close();
  });

  const admin = <T>(method: string, path: string, body?: unknown) =>
    call<T>(world.harness.url, method, path, TOKEN, body);
  const shop = () => world.shop.domain;
  const simple = (title: string) => ({
    title,
    vendor: 'Acme',
    product_type: 'Mugs',
    variants: [{ price: '12.00', sku: `runs-${randomBytes(4).toString('hex')}` }],
  });
  const dropDeliveries = async (drop: number) => {
    const answer = await world.sandboxes.shopify.control('PUT', `shops/${shop()}/delivery-faults`, { drop });
    expect(answer.status).toBeLessThan(300);
  };
  const ended = (id: string) =>
    eventually(async () => {
      const run = await admin<ResyncRunDto>('GET', `/admin/resync/${id}`);
      return run.body.state !== 'running' && run.body;
    }, 60_000);

  it('lists a resync with a refused product by its counts, and its error report holds that product', async () => {
    ids.kept = await world.createProduct(simple('Runs Kept'));
    ids.edited = await world.createProduct(simple('Runs Edited'));
    ids.gone = await world.createProduct(simple('Runs Gone'));
    for (const id of [ids.kept, ids.edited, ids.gone]) await world.settle(id);

    // The connector misses an edit, two new products and a deletion (their webhooks are dropped).
    await dropDeliveries(1);
    await world.updateProduct(ids.edited, { title: 'Runs Edited Again' });
    ids.created = await world.createProduct(simple('Runs New'));
    ids.refused = await world.createProduct(simple('=Runs Refused, "quoted"'));
    catalog.refused = ids.refused;
    await world.deleteProduct(ids.gone);
    await world.sandboxes.shopify.sandbox.idle();
    await dropDeliveries(0);

    const started = await admin<ResyncRunDto>('POST', '/admin/resync', { shop: shop() });
    expect(started.status, started.text).toBe(200);
    const run = await ended(started.body.id);
    expect(run).toMatchObject({ state: 'done', listed: 4, failed: 1 });

    const listed = await admin<RunListDto>('GET', `/admin/runs?shop=${shop()}`);
    expect(listed.status, listed.text).toBe(200);
    const found = listed.body.items.find((item) => item.kind === 'resync' && item.id === run.id);
    expect(found).toMatchObject({
      shop: shop(),
      state: 'done',
      dryRun: false,
      counts: { listed: 4, created: 1, updated: 1, deleted: 0, failed: 1, skipped: 1, waiting: 0 },
      findings: null,
      page: `/admin/ui/runs/resync/${run.id}`,
      api: `/admin/resync/${run.id}`,
      errors: `/admin/runs/resync/${run.id}/errors.csv`,
    });
    resync = found as RunSummaryDto;
    // Newest first; a kind filter keeps that kind; bad parameters are refused by name.
    const starts = listed.body.items.map((item) => item.startedAt);
    expect([...starts].sort().reverse()).toEqual(starts);
    const drift = await admin<RunListDto>('GET', `/admin/runs?shop=${shop()}&kind=drift`);
    expect(drift.body.items.every((item) => item.kind === 'drift')).toBe(true);
    expect((await admin('GET', '/admin/runs?kind=sync')).status).toBe(400);
    expect((await admin('GET', '/admin/runs?limit=0')).status).toBe(400);

    const report = await admin('GET', resync.errors);
    expect(report.status, report.text).toBe(200);
    expect(report.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(report.headers.get('content-disposition')).toContain('attachment');
    const lines = report.text.split('\r\n');
    expect(lines[0]).toBe('product_id,title,error_code,error,at');
    expect(lines).toHaveLength(3);
    // The title is quoted (a comma, quotes) and defused (it begins with =); the error in words too.
    expect(lines[1]).toMatch(
      new RegExp(
        `^${ids.refused},"'=Runs Refused, ""quoted""",invalid_attribute_value,"[^\\r\\n]*refused, as ""this test"" wants",\\d{4}-`,
      ),
    );
    expect(lines[2]).toBe('');
    expect((await admin('GET', `/admin/runs/drift/${run.id}/errors.csv`)).status).toBe(404);
    expect((await admin('GET', `/admin/runs/sync/${run.id}/errors.csv`)).status).toBe(404);
    expect((await call(world.harness.url, 'GET', resync.errors)).status).toBe(401);
  });

  it("lists an operator's reconciliation with the deletion it found", async () => {
    const started = await admin<ResyncRunDto>('POST', `/admin/reconcile?shop=${shop()}`);
    expect(started.status, started.text).toBe(200);
    const run = await ended(started.body.id);
    const listed = await admin<RunListDto>('GET', `/admin/runs?shop=${shop()}&kind=reconcile`);
    const found = listed.body.items.find((item) => item.id === run.id);
    expect(found?.kind).toBe('reconcile');
    // The product deleted in Shopify without a delivery, and the refused one found again.
    expect(found?.counts).toMatchObject({ deleted: 1, failed: 1, waiting: 0 });
    expect(listed.body.items.every((item) => item.kind === 'reconcile')).toBe(true);
  });

  it('counts what a dry run would do', async () => {
    const started = await admin<ResyncRunDto>('POST', '/admin/resync', { shop: shop(), dryRun: true });
    expect(started.status, started.text).toBe(200);
    const run = await ended(started.body.id);
    const listed = await admin<RunListDto>('GET', `/admin/runs?shop=${shop()}&kind=resync&limit=1`);
    expect(listed.body.items).toHaveLength(1);
    // Only the refused product still has no record in the catalog: its plan creates one.
    expect(listed.body.items[0]).toMatchObject({
      id: run.id,
      dryRun: true,
      counts: { listed: 4, created: 1, updated: 0, deleted: 0, failed: 0, skipped: 3, waiting: 0 },
    });
  });

  it('shows each shop its last and next runs in GET /admin/overview', async () => {
    // The shop's scheduled poll, at its turn of the interval.
    await tickAtTurn(world.harness.connector.app, QueueName.ENRICHMENT_POLL, shop());
    await eventually(async () => {
      const seen = await admin<OverviewDto>('GET', '/admin/overview');
      return seen.body.shops.find((s) => s.shop === shop())?.runs?.lastPoll != null;
    }, 30_000);
    const overview = await admin<OverviewDto>('GET', '/admin/overview');
    const runs = overview.body.shops.find((s) => s.shop === shop())?.runs;
    expect(runs?.lastSync).not.toBeNull();
    expect(Date.parse(runs?.lastSync ?? '')).toBeLessThanOrEqual(Date.parse(overview.body.at));
    expect(runs?.lastReconcile).not.toBeNull();
    // The next reconciliation is due one interval (6 h by default) after the last.
    expect(Date.parse(runs?.nextReconcile ?? '') - Date.parse(runs?.lastReconcile ?? '')).toBe(6 * 3_600_000);
    // The demo mapping writes back: the shop is polled, the next poll due one interval (60 s)
    // after its last, at its turn.
    expect(runs?.polled).toBe(true);
    expect(runs?.nextPoll).not.toBeNull();
    expect(Date.parse(runs?.nextPoll ?? '')).toBeLessThanOrEqual(Date.parse(overview.body.at) + 60_000);
  });

  it('shows the runs with their counts in the web view, with a working error report link', async () => {
    const cookie = await uiSessionCookie(world.harness.url, TOKEN);
    const list = await uiPage(world.harness.url, cookie, `/admin/ui/runs?shop=${encodeURIComponent(shop())}`);
    expect(list.status).toBe(200);
    const row = new RegExp(`<tr data-run="resync-${resync.id}">[\\s\\S]*?</tr>`).exec(list.html)?.[0] ?? '';
    for (const [name, count] of Object.entries({ created: 1, updated: 1, deleted: 0, failed: 1, skipped: 1 }))
      expect(row, name).toContain(
        `data-count="${name}"${name === 'failed' ? ' class="error"' : ''}>${count}<`,
      );
    expect(row).toContain(`href="/admin/ui/runs/resync/${resync.id}"`);
    const csvHref = /href="([^"]+\/errors\.csv)"/.exec(row)?.[1];
    expect(csvHref).toBe(`/admin/ui/runs/resync/${resync.id}/errors.csv`);
    const csv = await fetch(`${world.harness.url}${csvHref}`, { headers: { cookie } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(await csv.text()).toBe((await admin('GET', resync.errors)).text);
    expect((await fetch(`${world.harness.url}${csvHref}`)).status).toBe(401);

    // The run's own page: its counts and the refused product, linked, with its title.
    const runPage = await uiPage(world.harness.url, cookie, `/admin/ui/runs/resync/${resync.id}`);
    expect(runPage.status).toBe(200);
    expect(runPage.html).toContain(`data-product="${ids.refused}"`);
    expect(runPage.html).toContain('=Runs Refused, &quot;quoted&quot;');
    expect(runPage.html).toContain(
      `href="/admin/ui/products/${ids.refused}?shop=${encodeURIComponent(shop())}"`,
    );
    expect(runPage.html).toMatch(/data-count="failed">failed<strong>1<\/strong>/);
    expect((await uiPage(world.harness.url, cookie, '/admin/ui/runs/resync/999999999')).status).toBe(404);

    // The navigation, the overview and the shop's page lead to the history.
    const overview = await uiPage(world.harness.url, cookie, '/admin/ui');
    expect(overview.html).toContain('href="/admin/ui/runs"');
    expect(overview.html).toContain(`data-shop-runs="${shop()}"`);
    expect(overview.html).toMatch(
      /<time datetime="[^"]+" title="\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC">(just now|\d+ min ago)<\/time>/,
    );
    const shopPage = await uiPage(
      world.harness.url,
      cookie,
      `/admin/ui/shops/${encodeURIComponent(shop())}/sync`,
    );
    expect(shopPage.html).toContain(`href="/admin/ui/runs?shop=${encodeURIComponent(shop())}"`);
    expect(shopPage.html).toContain('Last successful sync');
  });

  // Six page loads with axe in one browser: two minutes on a loaded 2-core machine (not a timing claim).
  it('reads well at 1280 and 390 px: no serious accessibility violation, no sideways page scroll', {
    timeout: 120_000,
  }, async () => {
    const browser = await startBrowser({ bypassCSP: true });
    try {
      for (const [name, path] of [
        ['runs-with-runs', `/admin/ui/runs?shop=${encodeURIComponent(shop())}`],
        ['run', `/admin/ui/runs/resync/${resync.id}`],
        ['shop-sync', `/admin/ui/shops/${encodeURIComponent(shop())}/sync`],
      ] as const) {
        for (const width of [1280, 390]) {
          const page = await signedInPage(browser, world.harness.url, TOKEN, width);
          expect((await page.goto(`${world.harness.url}${path}`))?.status(), path).toBe(200);
          expect(await screenshotAt(page, name, width), `${path} at ${width}`).toBeLessThanOrEqual(0);
          expect(await seriousViolations(page), `${path} at ${width}`).toEqual([]);
          await page.close();
        }
      }
    } finally {
      await browser.close();
    }
  });
});
