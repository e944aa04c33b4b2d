import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { productUpdateBody, testShop } from './support/test-shop.js';

type LogLine = Record<string, unknown> & {
  level: string;
  time: string;
  msg?: string;
  correlationId?: string;
};

// The connector's logs are JSON lines (pino) with a correlation id per request (webhook id and
// shop for a webhook) and per job run; with every secret configured and work done through
// every door, no line holds any of them.
describe('logs', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  const raw: string[] = [];
  const lines = () => raw.join('').split('\n').filter(Boolean);
  const parsed = () => lines().map((line) => JSON.parse(line) as LogLine);
  const adminToken = `admin-${randomBytes(16).toString('hex')}`;
  const ok = testShop({
    webhookSecrets: [
      `whsec-new-${randomBytes(8).toString('hex')}`,
      `whsec-old-${randomBytes(8).toString('hex')}`,
    ],
  });
  const revoked = testShop();
  let apiKey: string;
  const revokedToken = `shpat_revoked_${randomBytes(8).toString('hex')}`;

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    await sandboxes.addShop(ok);
    await sandboxes.addShop(revoked);
    apiKey = (await sandboxes.account()).apiKey;
    harness = await startConnector({
      // The revoked shop's token is one Shopify refuses: its jobs fail, and the failure is logged.
      shops: [ok, { ...revoked, accessToken: revokedToken }],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      env: { CONNECTOR_ADMIN_TOKEN: adminToken },
      logger: ['verbose', 'debug', 'log', 'warn', 'error'],
      logDestination: { write: (line: string) => void raw.push(line) },
    });
  });
  afterAll(async () => {
    await harness?.close();
    await sandboxes?.close();
  });

  it('writes JSON lines with a correlation id per webhook and per job, and never a configured secret', async () => {
    const webhookId = `wh-${randomBytes(6).toString('hex')}`;
    const accepted = await harness.deliver({
      shop: ok,
      body: productUpdateBody('7390000999001', new Date().toISOString()),
      webhookId,
      headers: { 'X-Request-Id': 'req-logs-0001' },
    });
    expect(accepted.body.status).toBe('accepted');
    // Signed with the old secret of the rotation, then with a wrong one.
    await harness.deliver({
      shop: ok,
      body: productUpdateBody('7390000999002', new Date().toISOString()),
      secret: ok.webhookSecrets[1],
    });
    expect(
      (await harness.deliver({ shop: ok, body: '{}', secret: 'not-a-secret-of-this-shop' })).status,
    ).toBe(401);
    // A permanent failure (Shopify refuses the revoked token), then the admin API and the web view.
    await harness.deliver({
      shop: revoked,
      body: productUpdateBody('7390000999003', new Date().toISOString()),
    });
    await eventually(
      async () =>
        (await call<{ total: number }>(harness.url, 'GET', '/admin/failures?state=open', adminToken)).body
          .total === 1,
    );
    expect((await call(harness.url, 'GET', '/admin/failures', `${adminToken}x`)).status).toBe(401);
    for (const token of [adminToken, 'wrong-token-of-the-right-length']) {
      await fetch(`${harness.url}/admin/ui/login`, {
        method: 'POST',
        body: new URLSearchParams({ token }),
        redirect: 'manual',
      });
    }
    await call(harness.url, 'GET', `/admin/queues`, adminToken);

    const all = await eventually(async () => {
      const current = parsed();
      return (
        current.some(
          (line) => line.correlationId?.startsWith('job:sync-product:') && line.shop === revoked.domain,
        ) && current
      );
    });
    for (const line of all) {
      expect(typeof line.time).toBe('string');
      expect(['trace', 'debug', 'info', 'warn', 'error', 'fatal']).toContain(line.level);
    }
    const webhookLines = all.filter((line) => line.webhookId === webhookId);
    expect(webhookLines.length).toBeGreaterThanOrEqual(1);
    expect(
      webhookLines.every((line) => line.correlationId === 'req-logs-0001' && line.shop === ok.domain),
    ).toBe(true);
    const failureLine = all.find(
      (line) =>
        line.level === 'warn' &&
        line.correlationId?.startsWith('job:sync-product:') &&
        line.shop === revoked.domain,
    );
    expect(failureLine).toMatchObject({ subject: '7390000999003', jobKind: 'sync-product' });
    const jobIds = new Set(
      all.filter((line) => line.correlationId?.startsWith('job:')).map((line) => line.correlationId),
    );
    expect(jobIds.size).toBeGreaterThanOrEqual(2);

    const secrets = [
      adminToken,
      apiKey,
      ok.accessToken,
      ...ok.webhookSecrets,
      revoked.webhookSecrets[0] as string,
    ];
    const text = lines().join('\n');
    expect(text.length).toBeGreaterThan(1_000);
    for (const secret of secrets) {
      expect(text.includes(secret), `a secret of ${secret.length} characters appears in the logs`).toBe(
        false,
      );
    }
  });
});
