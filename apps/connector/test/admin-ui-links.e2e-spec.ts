import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FailuresService } from '../src/platform/failures/failures.service.js';
import { call } from './support/admin-client.js';
import { signedInPage, uiPage, uiSessionCookie } from './support/admin-ui-session.js';
import { startBrowser } from './support/browser.js';
import { eventually } from './support/connector-harness.js';
import { crawlLinks } from './support/link-crawler.js';
import { type SyncWorld, startSyncWorld } from './support/sync-world.js';
import { screenshotAt, seriousViolations } from './support/ui-audit.js';

// Every link of the operators' view leads somewhere: signed in, a crawler follows breadth-first
// every same-origin link under /admin of every page reachable from /admin/ui, on a connector
// with data (a synced product, failures of a product's sync and images, of a shop's poll and of
// a resync run, one resolved by a later success, a drift report, a resync run, an enrichment
// poll), and none answers 4xx or 5xx. Each failure has a page of its own, its Subject leading
// to the product's page or, for a poll or a run, to that failure page.
describe('/admin/ui links', () => {
  let world: SyncWorld;
  let productId: string;
  const token = `admin-${randomBytes(16).toString('hex')}`;
  const ids: Record<string, string> = {};
  const admin = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
    call<T>(world.harness.url, method, path, token, body);

  beforeAll(async () => {
    world = await startSyncWorld({ env: { CONNECTOR_ADMIN_TOKEN: token } });
    const shop = world.shop.domain;
    productId = await world.createProduct({ title: 'Crawled Apron', vendor: 'Acme' });
    await world.settle(productId);
    // The runs first: their successes would resolve the failures recorded below.
    expect((await admin('POST', `/admin/shops/${shop}/drift`)).status).toBe(200);
    const run = await admin<{ id: string }>('POST', '/admin/resync', { shop });
    expect(run.status).toBe(200);
    await eventually(
      async () =>
        (await admin<{ state: string }>('GET', `/admin/resync/${run.body.id}`)).body.state === 'done',
      60_000,
    );
    await eventually(async () => (await world.syncRecords(productId)).some((r) => r.reason === 'resync'));
    const poll = await admin<{ id: string }>('POST', '/admin/enrichment/poll');
    expect(poll.status).toBe(200);
    await eventually(
      async () =>
        (await admin<{ status: string }>('GET', `/admin/enrichment/poll/${poll.body.id}`)).body.status ===
        'finished',
      60_000,
    );
    const failures = world.harness.connector.app.get(FailuresService);
    const error = (code: string) => ({ code, message: `${code}: as the job said it`, retryable: true });
    ids.sync = await failures.record({
      shop,
      jobKind: 'sync-product',
      subjectKey: productId,
      payload: { shop, productId, reason: 'webhook' },
      error: error('create_outcome_unknown'),
      attempts: 8,
      jobId: 'sync-1',
    });
    ids.media = await failures.record({
      shop,
      jobKind: 'sync-media',
      subjectKey: `${productId}:gid://shopify/MediaImage/1`,
      payload: { shop, productId, mediaId: 'gid://shopify/MediaImage/1', stage: 'fetch' },
      error: error('not_an_image'),
      attempts: 1,
    });
    for (const jobId of ['poll-a', 'poll-b']) {
      ids.poll = await failures.record({
        shop,
        jobKind: 'enrichment-poll',
        subjectKey: 'poll',
        payload: { trigger: 'schedule' },
        error: error('internal_error'),
        attempts: 1,
        jobId,
      });
    }
    ids.run = await failures.record({
      shop,
      jobKind: 'resync-page',
      subjectKey: 'run:crawl-run',
      payload: { shop, runId: 'crawl-run' },
      error: error('shopify_throttled'),
      attempts: 5,
    });
    ids.resolved = await failures.record({
      shop,
      jobKind: 'enrichment-push',
      subjectKey: productId,
      payload: { shop, productId, reason: 'poll' },
      error: error('circuit_open'),
      attempts: 8,
    });
    await failures.resolveSucceeded(shop, 'enrichment-push', [productId], 'enrichment-push job 7');
  });
  afterAll(async () => {
    await world?.close();
  });

  it('gives each failure a page: its cause in words, history, raw detail folded, replay and dismiss', async () => {
    const cookie = await uiSessionCookie(world.harness.url, token);
    const poll = await uiPage(world.harness.url, cookie, `/admin/ui/failures/${ids.poll}`);
    expect(poll.status).toBe(200);
    expect(poll.html).toContain('The catalog answered 500');
    expect(poll.html).toMatch(/Next step:/);
    expect(poll.html).toContain('2 times');
    expect(poll.html).toContain('poll-a');
    expect(poll.html).toContain('poll-b');
    expect(poll.html).toMatch(
      /<details><summary>Raw detail<\/summary>[\s\S]*internal_error: as the job said it/,
    );
    expect(poll.html).toContain(`action="/admin/ui/failures/${ids.poll}/replay"`);
    expect(poll.html).toContain(`action="/admin/ui/failures/${ids.poll}/dismiss"`);
    const resolved = await uiPage(world.harness.url, cookie, `/admin/ui/failures/${ids.resolved}`);
    expect(resolved.html).toContain('enrichment-push job 7');
    expect(resolved.html).not.toContain('/dismiss"');
    expect((await uiPage(world.harness.url, cookie, '/admin/ui/failures/999999999')).status).toBe(404);
    // The JSON twin.
    const json = await admin<{ occurrences: number; history: Array<{ jobId?: string }> }>(
      'GET',
      `/admin/failures/${ids.poll}`,
    );
    expect(json.body.occurrences).toBe(2);
    expect(json.body.history.map((o) => o.jobId)).toEqual(['poll-a', 'poll-b']);
  });

  it('shows a failure page at 1280 and 390 px without sideways scroll or a serious accessibility violation', async () => {
    const browser = await startBrowser({ bypassCSP: true });
    try {
      const page = await signedInPage(browser, world.harness.url, token);
      for (const [name, id] of [
        ['failure-open', ids.poll],
        ['failure-resolved', ids.resolved],
      ] as const) {
        for (const width of [1280, 390]) {
          await page.setViewportSize({ width, height: 900 });
          expect((await page.goto(`${world.harness.url}/admin/ui/failures/${id}`))?.status()).toBe(200);
          expect(await screenshotAt(page, name, width), `${name} at ${width} px`).toBeLessThanOrEqual(0);
        }
        expect(await seriousViolations(page)).toEqual([]);
      }
    } finally {
      await browser.close();
    }
  });

  it("leads a failure's Subject to the product's page, or for a poll or a run to the failure's own page", async () => {
    const cookie = await uiSessionCookie(world.harness.url, token);
    // Open or already resolved (a later good poll or page of the same subject resolves it): both lists.
    const lists = await Promise.all(
      ['open', 'resolved'].map((state) =>
        uiPage(world.harness.url, cookie, `/admin/ui/failures?shop=${world.shop.domain}&state=${state}`),
      ),
    );
    const list = { html: lists.map((one) => one.html).join('\n') };
    const subjectOf = (id: string) => {
      const row = list.html.match(new RegExp(`<tr data-failure-id="${id}">[\\s\\S]*?</tr>`))?.[0] ?? '';
      return [...row.matchAll(/<td>(?:<[^>]*>)*<a (?:class="[^"]*" )?href="([^"]*)"/g)].map((m) =>
        m[1]?.replace(/&amp;/g, '&'),
      );
    };
    const product = `/admin/ui/products/${productId}?shop=${encodeURIComponent(world.shop.domain)}`;
    expect(subjectOf(ids.sync as string)).toContain(product);
    expect(subjectOf(ids.media as string)).toContain(product);
    expect(subjectOf(ids.poll as string)).toContain(`/admin/ui/failures/${ids.poll}`);
    expect(subjectOf(ids.run as string)).toContain(`/admin/ui/failures/${ids.run}`);
    expect(list.html).not.toContain('/admin/ui/products/poll');
  });

  it('follows every link of every page reachable from /admin/ui: none answers 4xx or 5xx', async () => {
    const cookie = await uiSessionCookie(world.harness.url, token);
    const crawl = await crawlLinks(world.harness.url, cookie, '/admin/ui', 600);
    expect(crawl.bad).toEqual([]);
    expect(crawl.capped).toBe(false);
    // It went where the data is.
    for (const path of [
      `/admin/ui/failures/${ids.poll}`,
      `/admin/ui/failures/${ids.run}`,
      `/admin/ui/products/${productId}?shop=${encodeURIComponent(world.shop.domain)}`,
    ]) {
      expect(crawl.visited).toContain(path);
    }
    expect(crawl.visited.some((path) => /^\/admin\/ui\/drift\/[^/?]+$/.test(path))).toBe(true);
  });

  it('passes axe (no serious violation) and holds at 1280 and 390 px on one page of every kind the crawl reached', async () => {
    const cookie = await uiSessionCookie(world.harness.url, token);
    const crawl = await crawlLinks(world.harness.url, cookie, '/admin/ui', 600);
    // One page per route: ids and shops in the path are the same page with other data.
    const kinds = new Map<string, string>();
    for (const path of crawl.visited) {
      const url = new URL(path, world.harness.url);
      if (!url.pathname.startsWith('/admin/ui') || url.pathname.startsWith('/admin/ui/queues')) continue;
      if (url.pathname.endsWith('.csv')) continue;
      const kind = url.pathname
        .split('/')
        .map((part) => (/^\d+$/.test(part) ? ':id' : part.includes('.myshopify.com') ? ':shop' : part))
        .join('/');
      if (!kinds.has(kind)) kinds.set(kind, path);
    }
    expect(kinds.size).toBeGreaterThan(15);
    const browser = await startBrowser({ bypassCSP: true });
    const problems: string[] = [];
    try {
      const page = await signedInPage(browser, world.harness.url, token);
      for (const [kind, path] of kinds) {
        await page.setViewportSize({ width: 1280, height: 900 });
        const answer = await page.goto(`${world.harness.url}${path}`);
        if (!(answer?.headers()['content-type'] ?? '').includes('text/html')) continue;
        const name = `crawl${kind.replaceAll('/', '-').replaceAll(':', '')}`;
        for (const violation of await seriousViolations(page))
          problems.push(`${path}: ${violation.id} (${violation.impact}) at ${violation.nodes.join(', ')}`);
        for (const width of [1280, 390]) {
          try {
            if ((await screenshotAt(page, name, width)) > 0)
              problems.push(`${path}: scrolls sideways at ${width} px`);
          } catch (error) {
            problems.push(`${path}: ${(error as Error).message}`);
          }
        }
      }
    } finally {
      await browser.close();
    }
    expect(problems).toEqual([]);
  }, 300_000);
});
