import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call } from './support/admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';
import { productUpdateBody, testShop } from './support/test-shop.js';

// The connector's PostgreSQL goes away (a TCP proxy in front of the shared server is cut; the
// server itself is never stopped): intake answers 503 so Shopify sends again, readiness fails,
// the overview answers 503 with the cause and its next step, and they recover when it comes back.
describe('PostgreSQL unavailable', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  let proxy: TcpProxy;
  const shop = testShop();
  const adminToken = `outage-${randomBytes(16).toString('hex')}`;

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    await sandboxes.addShop(shop);
    const account = await sandboxes.account();
    const database = new URL(inject('databaseUrl'));
    proxy = await startTcpProxy(database.hostname, Number(database.port || 5432));
    database.host = `127.0.0.1:${proxy.port}`;
    harness = await startConnector({
      shops: [shop],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: account.apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      databaseUrl: database.toString(),
      env: { CONNECTOR_DATABASE_TIMEOUT_MS: '1000', CONNECTOR_ADMIN_TOKEN: adminToken },
    });
  });
  afterAll(async () => {
    proxy?.restore();
    await harness?.close();
    await proxy?.close();
    await sandboxes?.close();
  });

  it('answers 503 with Retry-After, and stores once it is back', async () => {
    const body = productUpdateBody('7390000666001', new Date().toISOString());
    expect((await fetch(`${harness.url}/health/ready`)).status).toBe(200);
    proxy.cut();
    const refused = await harness.deliver({ shop, body });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.body).toMatchObject({ error: { code: 'storage_unavailable' } });
    const ready = await fetch(`${harness.url}/health/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ ready: false, checks: { database: 'down' } });
    expect((await fetch(`${harness.url}/health/live`)).status).toBe(200);
    // The overview cannot tell the shops' states: it says why, and the next step.
    const overview = await call<{ error: { code: string; message: string; hint?: string } }>(
      harness.url,
      'GET',
      '/admin/overview',
      adminToken,
    );
    expect(overview.status).toBe(503);
    expect(overview.body.error).toMatchObject({
      code: 'storage_unavailable',
      message: expect.stringMatching(
        /^PostgreSQL does not answer: the shops' states cannot be read \(.+\)\.$/,
      ),
      hint: expect.stringMatching(/Check DATABASE_URL and the database server\./),
    });

    proxy.restore();
    const accepted = await eventually(async () => {
      const answer = await harness.deliver({ shop, body });
      return answer.status === 200 && answer;
    });
    expect(accepted.body).toMatchObject({ status: 'accepted' });
    expect(await harness.inbox(shop.domain, '7390000666001')).toHaveLength(1);
    // The workers came back too: the delivery's job ran (the product does not exist in the shop).
    const done = await eventually(async () => {
      const [row] = await harness.inbox(shop.domain, '7390000666001');
      return row?.state === 'done' && row;
    }, 40_000);
    expect(done.outcome).toBe('not_found');
  });
});
