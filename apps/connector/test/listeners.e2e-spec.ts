import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/admin-client.js';
import { type ConnectorHarness, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { productUpdateBody, type TestShop, testShop } from './support/test-shop.js';

type ErrorBody = { error: { code: string; message: string; requestId: string } };

/** The routes only operators may reach, and what each answers to them (never a 404). */
const PRIVATE_ROUTES: Array<[path: string, served: number]> = [
  ['/admin/shops', 200],
  ['/admin/ui', 401], // the sign-in page
  ['/admin/ui/queues/', 401],
  ['/metrics', 200],
  ['/docs', 200],
  ['/openapi.json', 200],
  ['/health', 200], // with its dependencies (the probes /health/live and /health/ready are public)
  ['/', 302],
];

/** Fetches without following redirects, with the bearer token and extra headers. */
async function get(base: string, path: string, token: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, {
    headers: { Authorization: `Bearer ${token}`, ...headers },
    redirect: 'manual',
  });
  const text = await response.text();
  return { status: response.status, text, type: response.headers.get('content-type') ?? '' };
}

/** A 404 exactly as a path no route serves answers it: nothing says the route exists. */
function expectNoRoute(answer: { status: number; text: string; type: string }, path: string) {
  expect(answer.status, path).toBe(404);
  expect(answer.type).toContain('application/json');
  const body = JSON.parse(answer.text) as ErrorBody;
  expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'requestId']);
  expect(body.error).toMatchObject({ code: 'not_found', message: `No route GET ${path}.` });
}

// The connector's two sides: Shopify reaches the webhook door and the install routes; the admin
// API, the web view, /metrics and /docs are the operators'. With CONNECTOR_ADMIN_PORT they are
// on a private listener and 404 on the public one; with one port, 404 to requests from outside.
describe('listeners', () => {
  let sandboxes: Sandboxes;
  let shop: TestShop;
  let catalogApiKey: string;
  const token = `admin-${randomBytes(16).toString('hex')}`;

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    shop = testShop();
    await sandboxes.addShop(shop);
    catalogApiKey = (await sandboxes.account()).apiKey;
  });
  afterAll(async () => {
    await sandboxes?.close();
  });

  const start = (env: Record<string, string>, logDestination?: { write(line: string): void }) =>
    startConnector({
      shops: [shop],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      env: { CONNECTOR_ADMIN_TOKEN: token, ...env },
      ...(logDestination ? { logger: ['warn', 'error'] as Array<'warn' | 'error'>, logDestination } : {}),
    });

  describe('with CONNECTOR_ADMIN_PORT: a public and a private listener', () => {
    let harness: ConnectorHarness;
    let closed = false;
    let privateUrl: string;
    beforeAll(async () => {
      harness = await start({ CONNECTOR_ADMIN_PORT: '0' });
      privateUrl = harness.connector.adminUrl as string;
    });
    afterAll(async () => {
      if (!closed) await harness?.close();
    });

    it('serves the private routes on the private listener only: 404 on the public one, as a path no route serves', async () => {
      expect(privateUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(privateUrl).not.toBe(harness.url);
      expectNoRoute(await get(harness.url, '/no-such-route', token), '/no-such-route');
      for (const [path, served] of PRIVATE_ROUTES) {
        expectNoRoute(await get(harness.url, path, token), path);
        expect((await get(privateUrl, path, token)).status, path).toBe(served);
      }
      // Case and a trailing slash change nothing (Express matches routes either way).
      expectNoRoute(await get(harness.url, '/ADMIN/Shops/', token), '/ADMIN/Shops/');
      const signIn = await fetch(`${harness.url}/admin/ui/login`, {
        method: 'POST',
        body: new URLSearchParams({ token }),
        redirect: 'manual',
      });
      expect(signIn.status).toBe(404);
      expect(signIn.headers.get('set-cookie')).toBeNull();
      // Served on the private listener: the admin API answers with the shop.
      const shops = await call<{ shops: Array<{ shop: string }> }>(privateUrl, 'GET', '/admin/shops', token);
      expect(shops.body.shops.map((s) => s.shop)).toContain(shop.domain);
    });

    it('takes signed webhooks and installs on the public listener, and the health probes on both', async () => {
      const delivered = await harness.deliver({
        shop,
        body: productUpdateBody('7410000000001', new Date().toISOString()),
      });
      expect(delivered.status).toBe(200);
      expect(delivered.body.status).toBe('accepted');
      const onPrivate = await fetch(`${privateUrl}/webhooks/shopify`, { method: 'POST', body: '{}' });
      expect(onPrivate.status).toBe(404);
      expect(((await onPrivate.json()) as ErrorBody).error.code).toBe('not_found');
      // The install route answers on the public side (installs are closed here: its own refusal).
      const install = await get(harness.url, `/auth/shopify?shop=${shop.domain}`, token);
      expect((JSON.parse(install.text) as ErrorBody).error.code).toBe('install_unavailable');
      expectNoRoute(await get(privateUrl, '/auth/shopify', token), '/auth/shopify');
      for (const base of [harness.url, privateUrl]) {
        expect((await fetch(`${base}/health/ready`)).status).toBe(200);
        expect((await fetch(`${base}/health/live`)).status).toBe(200);
      }
    });

    it('closes both listeners on close', async () => {
      expect(privateUrl).toMatch(/^http:\/\//);
      closed = true;
      await harness.close();
      for (const base of [harness.url, privateUrl]) {
        await expect(fetch(`${base}/health/live`), base).rejects.toThrow();
      }
    });
  });

  describe('without CONNECTOR_ADMIN_PORT: one port, the private routes from inside only', () => {
    let harness: ConnectorHarness;
    const raw: string[] = [];
    beforeAll(async () => {
      harness = await start(
        { CONNECTOR_ADMIN_TRUSTED_NETWORKS: '198.51.100.0/24' },
        { write: (line: string) => void raw.push(line) },
      );
    });
    afterAll(async () => {
      await harness?.close();
    });

    it('refuses the private routes to a request a proxy forwarded from outside, and serves them from inside', async () => {
      for (const outside of [
        { 'X-Forwarded-For': '203.0.113.50' },
        { 'X-Forwarded-For': '127.0.0.1, 203.0.113.50' }, // the client's own entry, then the proxy's
        { Forwarded: 'for="[2001:db8::7]:4711";proto=https' },
        { 'X-Real-IP': '8.8.4.4' },
      ] as Array<Record<string, string>>) {
        for (const [path] of PRIVATE_ROUTES)
          expectNoRoute(await get(harness.url, path, token, outside), path);
      }
      for (const inside of [
        {},
        { 'X-Forwarded-For': '10.1.2.3' },
        { 'X-Forwarded-For': '198.51.100.20' },
      ] as Array<Record<string, string>>) {
        for (const [path, served] of PRIVATE_ROUTES) {
          expect(
            (await get(harness.url, path, token, inside)).status,
            `${path} ${JSON.stringify(inside)}`,
          ).toBe(served);
        }
      }
    });

    it('takes webhooks and health probes from outside as before', async () => {
      const outside = { 'X-Forwarded-For': '203.0.113.50' };
      const delivered = await harness.deliver({
        shop,
        body: productUpdateBody('7410000000002', new Date().toISOString()),
        headers: outside,
      });
      expect(delivered.status).toBe(200);
      expect((await fetch(`${harness.url}/health/ready`, { headers: outside })).status).toBe(200);
    });

    it('warns once at boot that the admin routes share the public port', () => {
      const warnings = raw
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { level: string; msg: string })
        .filter((line) => line.msg.includes('CONNECTOR_ADMIN_PORT is not set'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.level).toBe('warn');
      expect(warnings[0]?.msg).toContain(harness.connector.address);
    });
  });
});
