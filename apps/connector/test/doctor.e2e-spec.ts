import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DoctorReportDto } from '../src/operations/admin/doctor.dto.js';
import { runCli } from '../src/operations/cli/connector-cli.js';
import type { CliOutput } from '../src/operations/cli/context/cli-context.js';
import { call } from './support/admin-client.js';
import { uiPage, uiSessionCookie } from './support/admin-ui-session.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { type SyncWorld, startSyncWorld } from './support/sync-world.js';
import { type TestShop, testShop } from './support/test-shop.js';

const SHOPIFY_NEEDS =
  'Shopify delivers webhooks and sends installs back only to HTTPS on a name the internet resolves';

// Issue 43: `connector doctor` checks a deployment before the first webhook. On a healthy setup
// (the sandboxes, a shop subscribed by its connector, the reference mapping, a full catalog key)
// every check passes but the public URL's: the sandbox stack is plain HTTP on the loopback, which
// the check says it cannot vouch for (warn, with what Shopify needs). Then each fix is named: a
// missing webhook subscription, a missing scope, a read-only catalog key (each made on the sandboxes).
describe('connector doctor', () => {
  let world: SyncWorld;
  let readOnly: ConnectorHarness | undefined;
  const token = `doctor-${'t'.repeat(32)}`;

  const cli = async (harness: ConnectorHarness, shops: TestShop[], catalogKey: string, ...args: string[]) => {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const out: CliOutput = {
      line: (text = '') => stdout.push(text),
      warn: (text) => stderr.push(text),
      progress: process.stderr,
    };
    const env: Record<string, string> = {
      CONNECTOR_SHOPS: shops.map((s) => s.domain).join(','),
      CONNECTOR_CATALOG_URL: world.sandboxes.catalog.url,
      CONNECTOR_CATALOG_API_KEY: catalogKey,
      CONNECTOR_ADMIN_TOKEN: token,
    };
    for (const shop of shops) {
      env[`CONNECTOR_SHOP_${shop.key}_ACCESS_TOKEN`] = shop.accessToken;
      env[`CONNECTOR_SHOP_${shop.key}_WEBHOOK_SECRETS`] = shop.webhookSecrets.join(',');
    }
    const code = await runCli(['--url', harness.url, ...args], env, out);
    return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
  };
  const doctor = (...args: string[]) =>
    cli(world.harness, [world.shop], world.account.apiKey, 'doctor', '--shop', world.shop.domain, ...args);
  /** The shop's Admin GraphQL as the connector's app (the sandbox's static token). */
  const graphql = async <T>(query: string): Promise<T> => {
    const response = await fetch(`${world.sandboxes.shopify.adminUrl}/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': world.shop.accessToken },
      body: JSON.stringify({ query }),
    });
    return ((await response.json()) as { data: T }).data;
  };

  beforeAll(async () => {
    world = await startSyncWorld({ env: { CONNECTOR_ADMIN_TOKEN: token, CONNECTOR_MEDIA_ENABLED: 'false' } });
    // A product the reference mapping fully maps (a leaf category, a barcode for productModel).
    const shirt = await world.createProduct({
      title: 'Linen Shirt',
      vendor: 'Acme',
      product_type: 'Shirts',
      variants: [{ price: '35.00', barcode: '4006381333931' }],
    });
    await world.settle(shirt);
  });
  afterAll(async () => {
    await readOnly?.close();
    await world?.close();
  });

  it('passes every check of a healthy setup; the plain-HTTP loopback URL warns, saying why', async () => {
    const since = Date.now();
    const report = await call<DoctorReportDto>(
      world.harness.url,
      'GET',
      `/admin/doctor?shop=${world.shop.domain}`,
      token,
    );
    expect(report.status).toBe(200);
    const statuses = Object.fromEntries(report.body.checks.map((c) => [c.check, c.status]));
    expect(statuses).toEqual({
      'public-url': 'warn',
      'token-renewal': 'pass',
      scopes: 'pass',
      webhooks: 'pass',
      'catalog-key': 'pass',
      mapping: 'pass',
      clock: 'pass',
    });
    expect(report.body.failed).toBe(0);
    const publicUrl = report.body.checks.find((c) => c.check === 'public-url');
    expect(publicUrl?.detail).toBe(
      `${world.harness.url}/health/live answers over HTTP, but ${SHOPIFY_NEEDS}: whether Shopify gets through cannot be told.`,
    );
    expect(publicUrl?.fix).toContain('set CONNECTOR_PUBLIC_URL=https://<its name>');

    const run = await doctor();
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe('deployment');
    expect(lines[1]).toBe(`  ! public-url: ${publicUrl?.detail}`);
    expect(lines).toContain(world.shop.domain);
    for (const check of ['token-renewal', 'scopes', 'webhooks', 'catalog-key', 'mapping', 'clock'])
      expect(lines.some((line) => line.startsWith(`  ✓ ${check}: `))).toBe(true);
    expect(run.stdout).toContain(
      `  ✓ webhooks: 4 subscriptions (PRODUCTS_CREATE, PRODUCTS_UPDATE, PRODUCTS_DELETE, APP_UNINSTALLED) point at ${world.harness.url}/webhooks/shopify.`,
    );
    expect(run.stdout).toContain('tried on 1 product: every one can be enriched.');
    expect(lines.at(-1)).toBe('doctor: 6 passed, 0 failed, 1 warned, 0 could not be told');
    // The catalog's write probe was refused for its body: nothing was written.
    const writes = (await world.catalogCalls(since)).filter(
      (c) => c.method !== 'GET' && c.path !== '/v1/products/search',
    );
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.every((c) => c.method === 'PATCH' && c.path === '/v1/products' && c.status === 400)).toBe(
      true,
    );

    // The same list on the shop's page of the web view, linked from its syncing page.
    const cookie = await uiSessionCookie(world.harness.url, token);
    const base = `/admin/ui/shops/${encodeURIComponent(world.shop.domain)}`;
    expect((await uiPage(world.harness.url, cookie, `${base}/sync`)).html).toContain(`href="${base}/doctor"`);
    const page = await uiPage(world.harness.url, cookie, `${base}/doctor`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('No check fails.');
    expect(page.html).toContain('<tr data-check="catalog-key" data-status="pass">');
    expect(page.html).toContain('<tr data-check="public-url" data-status="warn">');
  });

  it('names the fix for a missing webhook subscription', async () => {
    const { webhookSubscriptions } = await graphql<{
      webhookSubscriptions: { nodes: Array<{ id: string; topic: string }> };
    }>('{ webhookSubscriptions(first: 50) { nodes { id topic } } }');
    const update = webhookSubscriptions.nodes.find((s) => s.topic === 'PRODUCTS_UPDATE');
    await graphql(
      `mutation { webhookSubscriptionDelete(id: "${update?.id}") { deletedWebhookSubscriptionId userErrors { message } } }`,
    );

    const run = await doctor();
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `  ✗ webhooks: 1 of 4 subscriptions missing at ${world.harness.url}/webhooks/shopify: PRODUCTS_UPDATE; their changes never reach the connector.`,
    );
    expect(run.stdout).toContain(
      `      run: npm run connector -- register-webhooks --shop ${world.shop.domain}`,
    );
    expect(run.stderr).toBe('connector: doctor: 1 check failed');

    // The fix it names, then the check passes again.
    const fixed = await cli(
      world.harness,
      [world.shop],
      world.account.apiKey,
      'register-webhooks',
      '--shop',
      world.shop.domain,
      '--public-url',
      world.harness.url,
    );
    expect(fixed.code).toBe(0);
    const again = await doctor();
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('  ✓ webhooks: 4 subscriptions');
  });

  it('names the fix for a missing scope', async () => {
    const { shopify } = world.sandboxes;
    const app = `apps/${shopify.clientId}`;
    await shopify.control('PUT', app, { scopes: ['read_products', 'read_inventory'] });
    try {
      const run = await doctor('--json');
      expect(run.code).toBe(1);
      const report = JSON.parse(run.stdout) as DoctorReportDto;
      const scopes = report.checks.find((c) => c.check === 'scopes');
      expect(scopes).toMatchObject({
        status: 'fail',
        detail: `${world.shop.domain} did not grant write_products (granted: read_products, read_inventory).`,
      });
      expect(scopes?.fix).toBe(
        `Add write_products to the app's access scopes in the Dev Dashboard, release a new version, then have ${world.shop.domain} approve them (open the install link again; docs/production.md, "Scopes").`,
      );
      expect(report.failed).toBe(1);
    } finally {
      await shopify.control('PUT', app, {
        scopes: ['read_products', 'write_products', 'read_inventory', 'write_inventory'],
      });
    }
  });

  it('names the fix for a catalog key that can only read', async () => {
    const { catalog } = world.sandboxes;
    const key = `readonly-${randomBytes(8).toString('hex')}`;
    const added = await catalog.portal.post(`/portal/v1/accounts/${world.account.id}/api-keys`, {
      key,
      permissions: ['products:read', 'attributes:read', 'taxonomy:read'],
    });
    expect(added.status).toBe(200);
    const shop = testShop({ webhookSecrets: [world.sandboxes.shopify.appSecret] });
    await world.sandboxes.addShop(shop);
    readOnly = await startConnector({
      shops: [shop],
      catalogUrl: catalog.url,
      catalogApiKey: key,
      shopifyFetch: world.sandboxes.shopifyFetch,
      publicUrl: true,
      env: { CONNECTOR_ADMIN_TOKEN: token, CONNECTOR_MEDIA_ENABLED: 'false' },
    });
    await eventually(async () => (await world.sandboxes.subscriptions(shop)).length === 4);

    const run = await cli(readOnly, [shop], key, 'doctor');
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('connector: doctor: 1 check failed');
    const line = run.stdout.split('\n').find((l) => l.includes('catalog-key:'));
    expect(line).toMatch(
      /^ {2}✗ catalog-key: the catalog key \S+ at http:\/\/127\.0\.0\.1:\d+ cannot write: the catalog refused the write probe with 403 \(forbidden\)\./,
    );
    expect(run.stdout).toContain(
      `      fix: Set CONNECTOR_SHOP_${shop.key}_CATALOG_API_KEY (or CONNECTOR_CATALOG_API_KEY) to a key the catalog accepts with products read and write permission, then restart the connector.`,
    );
  });
});
