import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, call } from './support/admin-client.js';
import { signedInPage } from './support/admin-ui-session.js';
import { startBrowser, type TestBrowser } from './support/browser.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { productUpdateBody, testShop } from './support/test-shop.js';
import { screenshotAt, seriousViolations } from './support/ui-audit.js';

interface FailureRow {
  id: string;
  shop: string;
  state: string;
}
interface Pause {
  scope: string;
  reason: string;
}

// The operators' bulk actions in Debian's chromium: failures ticked on the list and replayed or
// dismissed through a confirm page, every shop on a catalog key paused and resumed from the
// shops page; each checked through the admin API, each refused without the CSRF token (403,
// nothing changed); the admin API's POST /admin/failures/dismiss and pause by catalogKey; the
// failures (with its bulk form), shops and confirm pages at 1280 and 390 px with axe-core.
describe('/admin/ui bulk actions: failures and catalog keys', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  let browser: TestBrowser;
  // Both shops' Shopify tokens are revoked: each delivery's sync fails at once, permanently.
  const shops = [testShop(), testShop()] as const;
  const token = 'admin-actions-token-0123456789abcdef';
  const admin = <T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<Answer<T>> => call<T>(harness.url, method, path, token, body);
  const failure = async (id: string) => (await admin<FailureRow>('GET', `/admin/failures/${id}`)).body;
  const open = async (shop: string) =>
    (await admin<{ items: FailureRow[] }>('GET', `/admin/failures?state=open&shop=${shop}`)).body.items
      .map((f) => f.id)
      .sort();
  const pauses = async () => (await admin<{ pauses: Pause[] }>('GET', '/admin/queues')).body.pauses;

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    for (const shop of shops) await sandboxes.addShop(shop);
    harness = await startConnector({
      shops: shops.map((shop) => ({ ...shop, accessToken: 'shpat_revoked' })),
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: (await sandboxes.account()).apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      env: { CONNECTOR_ADMIN_TOKEN: token, CONNECTOR_MEDIA_ENABLED: 'false' },
    });
    const now = new Date().toISOString();
    for (const id of ['7390000777001', '7390000777002', '7390000777003', '7390000777004']) {
      await harness.deliver({ shop: shops[0], body: productUpdateBody(id, now) });
    }
    await harness.deliver({ shop: shops[1], body: productUpdateBody('7390000777101', now) });
    await eventually(async () => (await open(shops[0].domain)).length === 4);
    await eventually(async () => (await open(shops[1].domain)).length === 1);
    browser = await startBrowser({ bypassCSP: true });
    await (await signedIn()).close(); // the session the CSRF refusals below are made in
  });
  afterAll(async () => {
    await browser?.close();
    await harness?.close();
    await sandboxes?.close();
  });

  const signedIn = (width = 1280): Promise<Page> => signedInPage(browser, harness.url, token, width);
  /** A POST from the signed-in browser without the CSRF token. */
  const bare = (path: string, form: Record<string, string>) =>
    browser.context.request.post(`${harness.url}${path}`, {
      form,
      headers: { Origin: harness.url },
      maxRedirects: 0,
    });

  /** Screenshots at 1280 and 390 px, no sideways page scroll, axe-core: no serious violation. */
  const check = async (name: string, path: string) => {
    for (const width of [1280, 390]) {
      const page = await signedIn(width);
      const answer = await page.goto(`${harness.url}${path}`);
      expect(answer?.status(), path).toBe(200);
      expect(await screenshotAt(page, name, width)).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page)).toEqual([]);
      await page.close();
    }
  };

  it('dismisses the ticked failures after a confirm page; refused without the CSRF token', async () => {
    const [first, second] = await open(shops[0].domain);
    const refused = await bare('/admin/ui/failures/bulk', { action: 'dismiss', ids: `${first},${second}` });
    expect(refused.status()).toBe(403);
    expect((await failure(first as string)).state).toBe('open');

    await check('failures-bulk', `/admin/ui/failures?shop=${shops[0].domain}`);
    const page = await signedIn();
    await page.goto(`${harness.url}/admin/ui/failures?shop=${shops[0].domain}`);
    await page.getByLabel(`Select failure ${first}`).check();
    await page.getByLabel(`Select failure ${second}`).check();
    await page.getByRole('button', { name: 'Dismiss selected…' }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe('Dismiss 2 failure(s)?');
    // The confirm page changed nothing.
    expect((await failure(first as string)).state).toBe('open');
    await check('failures-bulk-confirm', new URL(page.url()).pathname + new URL(page.url()).search);
    await page.getByRole('button', { name: 'Dismiss 2 failure(s)' }).click();
    await expect(page.locator('[role="status"]').textContent()).resolves.toContain('2 failure(s) dismissed');
    expect((await failure(first as string)).state).toBe('dismissed');
    expect((await failure(second as string)).state).toBe('dismissed');
    await page.close();
  });

  it('replays a ticked failure after a confirm page; refused without the CSRF token', async () => {
    const [third] = await open(shops[0].domain);
    expect((await bare('/admin/ui/failures/bulk', { action: 'replay', ids: third as string })).status()).toBe(
      403,
    );
    expect((await failure(third as string)).state).toBe('open');
    const page = await signedIn();
    await page.goto(`${harness.url}/admin/ui/failures?shop=${shops[0].domain}`);
    await page.getByLabel(`Select failure ${third}`).check();
    await page.getByRole('button', { name: 'Replay selected…' }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe('Replay 1 failure(s)?');
    await page.getByRole('button', { name: 'Replay 1 failure(s)' }).click();
    await expect(page.locator('[role="status"]').textContent()).resolves.toContain(
      `1 failure(s) replayed: ${third}`,
    );
    expect((await failure(third as string)).state).toBe('replayed');
    await page.close();
  });

  it('POST /admin/failures/dismiss dismisses by ids or by an open-failures filter, skipping those not open', async () => {
    const [id] = await open(shops[1].domain);
    const byIds = await admin('POST', '/admin/failures/dismiss', { ids: [id, '999999'] });
    expect(byIds.status).toBe(200);
    expect(byIds.body).toMatchObject({ dismissed: 1, ids: [id], skipped: [{ id: '999999' }] });
    expect((await failure(id as string)).state).toBe('dismissed');
    // The replayed failure fails again (a new open failure): the filter takes every open one of the shop.
    const left = await eventually(async () => {
      const ids = await open(shops[0].domain);
      return ids.length === 2 && ids;
    });
    const byFilter = await admin<{ dismissed: number; ids: string[] }>('POST', '/admin/failures/dismiss', {
      shop: shops[0].domain,
      jobKind: 'sync-product',
    });
    expect(byFilter.status).toBe(200);
    expect(byFilter.body.ids.sort()).toEqual(left);
    expect(await open(shops[0].domain)).toEqual([]);
    expect((await admin('POST', '/admin/failures/dismiss', { state: 'open' })).status).toBe(400);
    expect((await admin('POST', '/admin/failures/dismiss', { ids: ['x'] })).status).toBe(400);
  });

  it('pauses and resumes every shop on a catalog key from the shops page; refused without the CSRF token', async () => {
    const view = await admin<{ catalog: Array<{ account: string; shops: string[] }> }>(
      'GET',
      '/admin/queues',
    );
    const account = view.body.catalog.find((a) => a.shops.includes(shops[0].domain))?.account as string;
    const key = account.slice(account.lastIndexOf('#') + 1);
    const both = shops.map((s) => s.domain).sort();
    expect((await bare(`/admin/ui/catalog-keys/${key}/pause`, { reason: 'forged' })).status()).toBe(403);
    expect(await pauses()).toEqual([]);

    await check('shops-actions', '/admin/ui/shops');
    const page = await signedIn();
    await page.goto(`${harness.url}/admin/ui/shops`);
    await expect(page.locator(`tr[data-catalog-key="${key}"] .paused`).textContent()).resolves.toBe(
      'syncing',
    );
    await page.getByRole('link', { name: `Pause syncing of every shop on catalog key ${key}` }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe(`Pause catalog key ${key}?`);
    expect(await pauses()).toEqual([]);
    await check('catalog-key-pause', `/admin/ui/catalog-keys/${key}/pause`);
    await page.getByLabel('Reason, shown to other operators').fill('key rotation');
    await page.getByRole('button', { name: 'Pause 2 shop(s)' }).click();
    await expect(page.locator('[role="status"]').textContent()).resolves.toContain('2 shop(s) paused');
    const paused = await pauses();
    expect(paused.map((p) => p.scope).sort()).toEqual(both);
    expect(paused.every((p) => p.reason === `catalog key ${key}: key rotation`)).toBe(true);
    await page.goto(`${harness.url}/admin/ui/shops`);
    await expect(page.locator(`tr[data-catalog-key="${key}"] .paused`).textContent()).resolves.toBe(
      '2 of 2 shop(s) paused',
    );

    expect((await bare(`/admin/ui/catalog-keys/${key}/resume`, {})).status()).toBe(403);
    expect(await pauses()).toHaveLength(2);
    await page.getByRole('link', { name: `Resume syncing of every shop on catalog key ${key}` }).click();
    await page.getByRole('button', { name: 'Resume 2 shop(s)' }).click();
    await expect(page.locator('[role="status"]').textContent()).resolves.toContain('2 shop(s) resumed');
    expect(await pauses()).toEqual([]);
    await page.close();
  });

  it('POST /admin/sync/pause?catalogKey= pauses each shop on the key, resume lifts them', async () => {
    const view = await admin<{ catalog: Array<{ account: string; shops: string[] }> }>(
      'GET',
      '/admin/queues',
    );
    const account = view.body.catalog.find((a) => a.shops.includes(shops[0].domain))?.account as string;
    const key = account.slice(account.lastIndexOf('#') + 1);
    const both = shops.map((s) => s.domain).sort();
    const paused = await admin<{ shops: string[] }>('POST', `/admin/sync/pause?catalogKey=${key}&reason=api`);
    expect(paused.status).toBe(200);
    expect(paused.body.shops.sort()).toEqual(both);
    expect((await pauses()).map((p) => p.scope).sort()).toEqual(both);
    const resumed = await admin<{ resumed: boolean; shops: string[] }>(
      'POST',
      `/admin/sync/resume?catalogKey=${encodeURIComponent(account)}`,
    );
    expect(resumed.body).toMatchObject({ resumed: true });
    expect(resumed.body.shops.sort()).toEqual(both);
    expect(await pauses()).toEqual([]);
    expect((await admin('POST', '/admin/sync/pause?catalogKey=nope')).status).toBe(400);
  });
});
