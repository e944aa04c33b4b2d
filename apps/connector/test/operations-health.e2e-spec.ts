import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, sample } from './support/admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';
import { productUpdateBody, testShop } from './support/test-shop.js';

interface DependencyReport {
  status: string;
  checkedAt: string | null;
  details: Record<string, unknown>;
}
interface HealthDetails {
  ready: boolean;
  checks: Record<string, string>;
  dependencies: Record<string, DependencyReport>;
}

// The catalog goes away (a TCP proxy in front of its sandbox is cut): /health reports it, the
// metrics too, and the replica stays ready and keeps taking webhooks; the checks are cached and
// spend none of the catalog budget. Metrics of catalog calls and sync latency move with work.
describe('dependency health', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  let proxy: TcpProxy;
  const shop = testShop();
  const health = async () => (await call<HealthDetails>(harness.url, 'GET', '/health')).body;
  const catalogOf = (details: HealthDetails) =>
    Object.entries(details.dependencies).find(([name]) => name.startsWith('catalog:'))?.[1];
  const metrics = async () => (await call(harness.url, 'GET', '/metrics')).text;

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    await sandboxes.addShop(shop);
    const account = await sandboxes.account();
    const catalog = new URL(sandboxes.catalog.url);
    proxy = await startTcpProxy(catalog.hostname, Number(catalog.port));
    harness = await startConnector({
      shops: [shop],
      catalogUrl: `http://127.0.0.1:${proxy.port}`,
      catalogApiKey: account.apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      env: { CONNECTOR_DEPENDENCY_CHECK_INTERVAL_MS: '100' },
    });
  });
  afterAll(async () => {
    proxy?.restore();
    await harness?.close();
    await proxy?.close();
    await sandboxes?.close();
  });

  it('reports the catalog and each Shopify shop in /health and the metrics, checked on a schedule', async () => {
    const up = await eventually(async () => {
      const details = await health();
      return (
        catalogOf(details)?.status === 'up' &&
        details.dependencies[`shopify:${shop.domain}`]?.status === 'up' &&
        details
      );
    });
    expect(up.ready).toBe(true);
    expect(catalogOf(up)?.details).toMatchObject({
      reachable: true,
      breaker: 'closed',
      shops: [shop.domain],
    });
    expect(up.dependencies[`shopify:${shop.domain}`]?.details).toMatchObject({
      reachable: true,
      tokenAccepted: true,
    });
    const [name] = Object.keys(up.dependencies).filter((key) => key.startsWith('catalog:'));
    expect(name).not.toContain((await sandboxes.account()).apiKey);
    const text = await metrics();
    expect(sample(text, 'connector_dependency_status', { dependency: name as string, status: 'up' })).toBe(1);
    expect(
      sample(text, 'connector_dependency_status', { dependency: `shopify:${shop.domain}`, status: 'up' }),
    ).toBe(1);
  });

  it('stays ready, and keeps taking webhooks, while the catalog is down', async () => {
    proxy.cut();
    try {
      const down = await eventually(async () => {
        const details = await health();
        return catalogOf(details)?.status === 'down' && details;
      });
      expect(catalogOf(down)?.details).toMatchObject({ reachable: false });
      expect(down.ready).toBe(true);
      const ready = await fetch(`${harness.url}/health/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ ready: true, checks: { database: 'up', queue: 'up' } });
      expect((await fetch(`${harness.url}/health`)).status).toBe(200);
      const answer = await harness.deliver({
        shop,
        body: productUpdateBody('7390000888001', new Date().toISOString()),
      });
      expect(answer.status).toBe(200);
      expect(answer.body.status).toBe('accepted');
      const name = Object.keys(down.dependencies).find((key) => key.startsWith('catalog:')) as string;
      expect(
        sample(await metrics(), 'connector_dependency_status', { dependency: name, status: 'down' }),
      ).toBe(1);
    } finally {
      proxy.restore();
    }
    await eventually(async () => catalogOf(await health())?.status === 'up');
  });

  it('spends no catalog budget on checks: many rounds, no more catalog calls', async () => {
    const calls = async () => {
      const text = await metrics();
      return text
        .split('\n')
        .filter((line) => line.startsWith('connector_catalog_calls_total{'))
        .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
    };
    const before = await calls();
    const checkedAt = catalogOf(await health())?.checkedAt;
    // Several check rounds pass (each one re-stamps checkedAt).
    for (let round = 0; round < 3; round++) {
      const stamp = catalogOf(await health())?.checkedAt;
      await eventually(async () => catalogOf(await health())?.checkedAt !== stamp);
    }
    expect(catalogOf(await health())?.checkedAt).not.toBe(checkedAt);
    expect(await calls()).toBe(before);
  });

  it('moves the catalog call and sync latency metrics when work happens', async () => {
    // The boot probe and the mapping check called the catalog; a sync of an unknown product ran.
    const text = await eventually(async () => {
      const current = await metrics();
      return sample(current, 'connector_sync_duration_seconds_count', { phase: 'latency' }) >= 1 && current;
    });
    expect(sample(text, 'connector_sync_duration_seconds_count', { phase: 'run' })).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(
      /^connector_catalog_calls_total\{account="[^"]+",endpoint="GET \/v1\/[^"]+",status="200"\} [1-9]/m,
    );
    expect(text).toContain('# TYPE connector_catalog_rate_limited_total counter');
    for (const name of [
      'connector_enrichment_poll_lag_seconds',
      'connector_write_backs_total',
      'connector_write_back_conflicts_total',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
  });
});
