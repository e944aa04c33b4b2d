import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONNECTOR_CLI,
  type ConnectorProcess,
  type ConnectorWorld,
  eventually,
  runCli,
  startConnectorProcess,
  startConnectorWorld,
} from './support/connector-world.js';
import { startProcess } from './support/stack-process.js';

// The commands over the admin routes of the operations and resync stages (issues 17 and 18):
// status (GET /admin/products/{id}), resync (POST /admin/resync, GET /admin/resync/{id}, with the
// sync pause of POST /admin/sync/pause|resume) and link (POST /admin/link). They pass once those
// stages are merged; the command line's other commands are in cli.e2e-spec.ts.
describe('npm run connector: status, resync, link', () => {
  let world: ConnectorWorld;
  let connector: ConnectorProcess;
  let cliEnv: Record<string, string>;
  /** A product the merchant made before the connector subscribed: nothing synced it. */
  let unsynced: string;
  /** A product synced through its webhook. */
  let synced: string;
  const cli = (...args: string[]) => runCli(['--url', connector.url, ...args], cliEnv);
  const admin = async (method: string, path: string) => {
    const response = await fetch(`${connector.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${world.adminToken}` },
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    world = await startConnectorWorld();
    unsynced = await world.createProduct({
      title: 'Before the connector',
      vendor: 'Acme',
      product_type: 'Shirts',
    });
    // a paused shop's jobs look again every 200 ms (not 30 s) once it is resumed
    connector = await startConnectorProcess(world.env({ CONNECTOR_CATALOG_PAUSE_RECHECK_MS: '200' }));
    cliEnv = world.env({ CONNECTOR_PUBLIC_URL: connector.url });
    expect((await cli('register-webhooks')).code).toBe(0);
    synced = await world.createProduct({
      title: 'Through its webhook',
      vendor: 'Acme',
      product_type: 'Shirts',
    });
    // its sync finished (the connector's own count of finished sync runs)
    await eventually(async () => {
      const metrics = await (await fetch(`${connector.url}/metrics`)).text();
      return /^connector_jobs_total\{[^}]*kind="sync-product"[^}]*outcome="synced"[^}]*\} [1-9]/m.test(
        metrics,
      );
    });
  });
  afterAll(async () => {
    await connector?.stop();
    await world?.close();
  });

  it('status shows a product by Shopify id, supplierSku or skuId; an id nothing knows exits 1', async () => {
    const byId = await cli('status', synced);
    expect(byId.code).toBe(0);
    expect(byId.stdout).toContain(`${world.shop.domain} product ${synced}\n`);
    const record = new RegExp(`^ {4}\\w+: (\\S+:product:${synced}) -> (\\S+) \\(live\\)$`, 'm').exec(
      byId.stdout,
    );
    expect(record, byId.stdout).not.toBeNull();
    expect(byId.stdout).toMatch(/^ {2}last sync: \S+ \(webhook\) synced/m);
    expect(byId.stdout).toMatch(/^ {4}\d+ catalog calls?/m);
    expect(byId.stdout).toContain('  last error: none\n');
    for (const id of [record?.[1] as string, record?.[2] as string]) {
      const other = await cli('status', id);
      expect(other.code).toBe(0);
      expect(other.stdout.split('\n')[0]).toBe(`${world.shop.domain} product ${synced}`);
    }
    const json = await cli('status', synced, '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({ shop: world.shop.domain, productId: synced });
    const unknown = await cli('status', 'no-such-supplier-sku');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^connector: .+ \(not_found, HTTP 404\)\n$/);
  });

  it('link --dry-run prints what would be linked, created, updated and deleted, and writes nothing', async () => {
    const run = await cli('link', '--dry-run');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`${world.shop.domain} (dry run: nothing written): 2 Shopify products`);
    expect(run.stdout).toMatch(/^ {2}linked {5}0 /m);
    expect(run.stdout).toMatch(new RegExp(`^ {2}created {4}1 .+: ${unsynced}$`, 'm'));
    expect(run.stdout).toMatch(new RegExp(`^ {2}updated {4}1 .+: ${synced}$`, 'm'));
    expect(run.stdout).toMatch(/^ {2}deleted {4}0 /m);
    expect(run.stdout).not.toContain('Resync run');
    // nothing was written: the product the dry run would create is still unknown to the
    // connector (no map row, no sync record: the documented 404)
    const after = await cli('status', unsynced);
    expect(after.code).toBe(1);
    expect(after.stderr).toMatch(/^connector: .+ \(not_found, HTTP 404\)\n$/);
    const badMatch = await cli('link', '--dry-run', '--match', 'title:name');
    expect(badMatch.code).toBe(2);
  });

  it('resync --product runs one product with a progress bar until the run ends (exit 0)', async () => {
    const run = await cli('resync', '--product', unsynced, '--interval', '200');
    expect(run.code, run.stderr).toBe(0);
    const id = /^Resync run (\S+) started: product (\d+) of (\S+)$/m.exec(run.stdout);
    expect(id?.slice(2)).toEqual([unsynced, world.shop.domain]);
    expect(run.stdout).toContain(`Resync run ${id?.[1]} done: 1 product synced, 0 failed.`);
    expect(run.stderr).toMatch(/resync \|.*\| 1\/1 products \| failed 0 \| ETA/);
    expect((await cli('status', unsynced)).stdout).toMatch(/ \(live\)$/m);
  });

  it('resync of the whole shop ends done; Ctrl-C stops watching only, and --watch shows the run again', async () => {
    const whole = await cli('resync', '--interval', '200');
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.stdout).toMatch(/^Resync run \S+ done: 2 products synced, 0 failed\.$/m);

    // With the shop's sync paused the run cannot end: watch it, then Ctrl-C.
    expect((await admin('POST', `/admin/sync/pause?shop=${world.shop.domain}`)).status).toBe(200);
    const watching = startProcess(
      'node',
      [CONNECTOR_CLI, '--url', connector.url, 'resync', '--interval', '200'],
      cliEnv,
    );
    const started = await watching.waitForOutput(/Resync run (\S+) started/);
    const runId = /Resync run (\S+) started/.exec(started)?.[1] as string;
    await watching.waitForOutput(/resync \|/);
    watching.child.kill('SIGINT');
    const ended = await watching.exited;
    expect(ended.code).toBe(130);
    expect(watching.output()).toContain(
      `connector: stopped watching; resync run ${runId} goes on (watch it again: npm run connector -- resync --watch ${runId})`,
    );
    expect((await admin('GET', `/admin/resync/${runId}`)).body.state).toBe('running');

    expect((await admin('POST', `/admin/sync/resume?shop=${world.shop.domain}`)).status).toBe(200);
    const again = await cli('resync', '--watch', runId, '--interval', '200');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe(`Resync run ${runId} done: 2 products synced, 0 failed.`);
    expect((await cli('resync', '--watch', runId, '--product', synced)).code).toBe(2);
  });
});
