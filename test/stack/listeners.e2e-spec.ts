import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConnectorProcess,
  type ConnectorWorld,
  runCli,
  startConnectorProcess,
  startConnectorWorld,
} from './support/connector-world.js';
import { answers, freePort } from './support/stack-process.js';

/** The operators' routes, and what each answers on the private listener (never a 404). */
const PRIVATE_ROUTES: Array<[path: string, served: number]> = [
  ['/admin/shops', 200],
  ['/admin/ui', 401], // the sign-in page
  ['/admin/ui/queues/', 401],
  ['/metrics', 200],
  ['/docs', 200],
  ['/openapi.json', 200],
  ['/health', 200], // with its dependencies (the probes /health/live and /health/ready are public)
];

// The built connector (dist/, main.ts) as a deployment runs it with CONNECTOR_ADMIN_PORT: the
// public port (what the reverse proxy forwards) takes Shopify's webhooks and the probes, and
// answers the operators' routes with the 404 of a path no route serves; the private port serves
// them, and the command line finds it without --url. A TERM closes both.
describe('the built connector on a public and a private listener', () => {
  let world: ConnectorWorld;
  let connector: ConnectorProcess;
  let adminPort: number;
  let env: Record<string, string>;
  let privateUrl: string;

  beforeAll(async () => {
    world = await startConnectorWorld();
    adminPort = await freePort();
    privateUrl = `http://127.0.0.1:${adminPort}`;
    env = world.env({ CONNECTOR_ADMIN_PORT: String(adminPort) });
    connector = await startConnectorProcess(env);
  });
  afterAll(async () => {
    await connector?.stop();
    await world?.close();
  });

  const get = (base: string, path: string) =>
    fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${world.adminToken}` }, redirect: 'manual' });

  it('says which port is which at start', () => {
    const banner = connector.process.output();
    expect(banner).toMatch(new RegExp(`Connector listening on ${connector.url} \\(bound [^)]+, public\\)`));
    expect(banner).toContain(`on the private listener ${privateUrl}`);
    expect(banner).not.toContain('CONNECTOR_ADMIN_PORT is not set');
  });

  it('serves the private routes on the private port only', async () => {
    for (const [path, served] of PRIVATE_ROUTES) {
      const onPublic = await get(connector.url, path);
      expect(onPublic.status, path).toBe(404);
      expect(await onPublic.json()).toMatchObject({
        error: { code: 'not_found', message: `No route GET ${path}.` },
      });
      expect((await get(privateUrl, path)).status, path).toBe(served);
    }
    expect((await get(connector.url, '/')).status).toBe(404);
    expect((await get(privateUrl, '/')).status).toBe(302);
  });

  it('takes a signed webhook and the readiness probe on the public port', async () => {
    const body = JSON.stringify({
      id: 7420000000001,
      title: 'Listener test',
      updated_at: new Date().toISOString(),
    });
    const delivered = await fetch(`${connector.url}/webhooks/shopify`, {
      method: 'POST',
      body,
      headers: {
        'Content-Type': 'application/json',
        'X-Shopify-Topic': 'products/update',
        'X-Shopify-Shop-Domain': world.shop.domain,
        'X-Shopify-Webhook-Id': randomUUID(),
        'X-Shopify-Event-Id': randomUUID(),
        'X-Shopify-Triggered-At': new Date().toISOString(),
        'X-Shopify-API-Version': '2026-07',
        'X-Shopify-Hmac-Sha256': createHmac('sha256', world.shopify.appSecret).update(body).digest('base64'),
      },
    });
    expect(delivered.status).toBe(200);
    expect((await fetch(`${connector.url}/health/ready`)).status).toBe(200);
    expect((await fetch(`${privateUrl}/webhooks/shopify`, { method: 'POST', body })).status).toBe(404);
  });

  it('lets the command line reach the admin API on the private port without --url', async () => {
    const run = await runCli(['shops'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(world.shop.domain);
  });

  it('closes both listeners on TERM', async () => {
    process.kill(connector.process.pid, 'SIGTERM');
    expect(await connector.process.exited).toEqual({ code: 0, signal: null });
    expect(await answers(`${connector.url}/health/live`)).toBe(false);
    expect(await answers(`${privateUrl}/health/live`)).toBe(false);
  });
});
