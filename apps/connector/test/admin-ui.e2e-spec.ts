import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, call } from './support/admin-client.js';
import { signedInPage } from './support/admin-ui-session.js';
import { startBrowser, type TestBrowser } from './support/browser.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { productUpdateBody, type TestShop, testShop } from './support/test-shop.js';

interface FailureDto {
  id: string;
  subjectKey: string;
  state: string;
}

// The operators' web view in a real headless chromium (Debian's package, driven by
// playwright-core): sign in through the form, see a failure, replay it; a form without the
// session's CSRF token refused; the queues view (bull-board) and a product's timeline.
describe('/admin/ui in a browser', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  let browser: TestBrowser;
  let broken: TestShop;
  const token = `admin-${randomBytes(16).toString('hex')}`;
  const admin = <T = Record<string, unknown>>(method: string, path: string): Promise<Answer<T>> =>
    call<T>(harness.url, method, path, token);
  const products = ['7390000777001', '7390000777002'];
  const failures: Record<string, FailureDto> = {};

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    broken = testShop();
    await sandboxes.addShop(broken);
    // Its token is revoked: every sync is a permanent failure at once.
    harness = await startConnector({
      shops: [{ ...broken, accessToken: 'shpat_revoked' }],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: (await sandboxes.account()).apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      env: { CONNECTOR_ADMIN_TOKEN: token },
    });
    for (const productId of products) {
      await harness.deliver({ shop: broken, body: productUpdateBody(productId, new Date().toISOString()) });
    }
    await eventually(async () => {
      const page = await admin<{ items: FailureDto[] }>(
        'GET',
        `/admin/failures?shop=${broken.domain}&state=open`,
      );
      for (const item of page.body.items) failures[item.subjectKey] = item;
      return page.body.items.length === 2;
    });
    browser = await startBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await harness?.close();
    await sandboxes?.close();
  });

  it('signs in through the form into an HttpOnly, SameSite=Strict session, and replays a failure', async () => {
    const page = await browser.context.newPage();
    const first = failures[products[0] as string] as FailureDto;
    // The connector's bare address leads to the web view (its sign-in form), not a JSON 404.
    const root = await fetch(`${harness.url}/`, { redirect: 'manual' });
    expect([root.status, root.headers.get('location')]).toEqual([302, '/admin/ui']);
    const signIn = await page.goto(`${harness.url}/`);
    expect(page.url()).toBe(`${harness.url}/admin/ui`);
    expect(signIn?.status()).toBe(401);
    await page.fill('input[name="token"]', 'not-the-token-at-all');
    await page.click('button[type="submit"]');
    await expect(page.locator('[role="alert"]').textContent()).resolves.toContain('not the admin token');

    await page.fill('input[name="token"]', token);
    await page.click('button[type="submit"]');
    await page.waitForURL(`${harness.url}/admin/ui`);
    expect(page.url()).not.toContain(token);
    await page.goto(`${harness.url}/admin/ui/failures`);
    await page.waitForSelector(`tr[data-failure-id="${first.id}"]`);
    const [cookie, ...others] = await browser.context.cookies();
    expect(others).toEqual([]);
    expect(cookie).toMatchObject({
      name: 'connector_admin_session',
      httpOnly: true,
      sameSite: 'Strict',
      path: '/admin/ui',
    });
    expect(cookie?.value).not.toContain(token);
    // The page's script cannot read it.
    expect(await page.evaluate('document.cookie')).toBe('');

    await page.click(`tr[data-failure-id="${first.id}"] button[value="Replay"]`);
    await expect(page.locator('[role="status"]').textContent()).resolves.toContain(
      `Failure ${first.id} replayed`,
    );
    expect((await admin<FailureDto>('GET', `/admin/failures/${first.id}`)).body.state).toBe('replayed');
    await page.close();
  });

  /** A page of a signed-in session (signing in through the form when the profile has none). */
  const signedIn = async () => {
    const page = await signedInPage(browser, harness.url, token);
    await page.goto(`${harness.url}/admin/ui/failures`);
    return page;
  };

  it('refuses an action whose form lacks the session CSRF token (403), changing nothing', async () => {
    const page = await signedIn();
    const second = failures[products[1] as string] as FailureDto;
    const row = page.locator(`tr[data-failure-id="${second.id}"]`);
    await row.waitFor();
    // Tamper with the token in the page's form, as a forged form would carry a wrong one.
    await page.evaluate(
      `document.querySelector('tr[data-failure-id="${second.id}"] input[name="_csrf"]').value = 'forged'`,
    );
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith(`/failures/${second.id}/replay`)),
      row.locator('button[value="Replay"]').click(),
    ]);
    expect(answer.status()).toBe(403);
    await expect(page.locator('h1').textContent()).resolves.toBe('Refused');
    // A form with no token at all, posted with the session cookie from the connector's own
    // origin (the browser context's request client shares its cookies): refused too.
    const bare = await page.context().request.post(`${harness.url}/admin/ui/failures/${second.id}/dismiss`, {
      form: {},
      headers: { Origin: harness.url },
      maxRedirects: 0,
    });
    expect(bare.status()).toBe(403);
    expect((await admin<FailureDto>('GET', `/admin/failures/${second.id}`)).body.state).toBe('open');
    await page.close();
  });

  it("shows the queues (bull-board) and a product's timeline under the session", async () => {
    const page = await signedIn();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const queues = await page.goto(`${harness.url}/admin/ui/queues/`);
    expect(queues?.status()).toBe(200);
    await page.getByText('sync-product').first().waitFor({ timeout: 15_000 });
    // Nothing from outside (bull-board's page asks Google for fonts), and a way back.
    expect(requested.filter((url) => !url.startsWith(harness.url))).toEqual([]);
    expect(await page.locator('a[href="/admin/ui"]').count()).toBeGreaterThan(0);
    const productId = products[1] as string;
    const timeline = await page.goto(`${harness.url}/admin/ui/products/${productId}?shop=${broken.domain}`);
    expect(timeline?.status()).toBe(200);
    await page.locator('li.event-webhook').first().waitFor();
    await page.locator('li.event-failure').first().waitFor();
    await expect(page.locator('li.event-failure').first().textContent()).resolves.toContain(
      'shopify_unauthorized',
    );
    await page.close();
  });

  it('keeps every page closed without a session, and signs out', async () => {
    for (const path of [
      '/admin/ui',
      '/admin/ui/failures',
      '/admin/ui/shops',
      '/admin/ui/products',
      '/admin/ui/queues/',
      '/admin/ui/queues/api/queues',
    ]) {
      const answer = await call(harness.url, 'GET', path, token); // a bearer token is no session
      expect(answer.status, path).toBe(401);
    }
    const post = await call(harness.url, 'POST', '/admin/ui/queues/api/queues/sync-product/retry/failed');
    expect(post.status).toBe(401);
    const page = await signedIn();
    await page.click('header button[type="submit"]');
    await page.waitForSelector('input[name="token"]');
    expect(await browser.context.cookies()).toEqual([]);
    await page.close();
  });
});
