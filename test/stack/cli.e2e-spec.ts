import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConnectorProcess,
  type ConnectorWorld,
  eventually,
  runCli,
  startConnectorProcess,
  startConnectorWorld,
} from './support/connector-world.js';
import { freePort, repoRoot } from './support/stack-process.js';

interface FailureDto {
  id: string;
  state: string;
  subjectKey: string;
  error: { code: string };
}

// The command line as an operator runs it (the build in dist/, a real process each time) against
// a connector process and both sandboxes: exit codes (0 ok, 1 failure, 2 usage) and output of
// check-config, register-webhooks, shops, failures and replay. status, resync and link need admin
// routes of other stages: test/stack/cli-operations.e2e-spec.ts.
describe('npm run connector', () => {
  let world: ConnectorWorld;
  let connector: ConnectorProcess;
  /** The command line's environment: the shop's real settings, the connector at connector.url. */
  let cliEnv: Record<string, string>;
  const cli = (...args: string[]) => runCli(['--url', connector.url, ...args], cliEnv);
  const openFailures = async () => {
    const run = await cli('failures', '--state', 'open', '--json');
    expect(run.code).toBe(0);
    return (JSON.parse(run.stdout) as { items: FailureDto[] }).items;
  };

  beforeAll(async () => {
    world = await startConnectorWorld();
    // This connector's Shopify token is revoked: every sync of the shop fails for good, which
    // fills the failures inbox. The command line has the shop's real token.
    connector = await startConnectorProcess(
      world.env({ [`CONNECTOR_SHOP_${world.shop.key}_ACCESS_TOKEN`]: 'shpat_revoked_token' }),
    );
    cliEnv = world.env({ CONNECTOR_PUBLIC_URL: connector.url });
  });
  afterAll(async () => {
    await connector?.stop();
    await world?.close();
  });

  it('is the npm script "connector", and says what it does with --help (exit 0)', () => {
    const scripts = (
      JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts.connector).toBe('node dist/apps/connector/src/operations/cli/main.js');
    expect(scripts.preconnector).toMatch(/npm run --silent build/);
    // The script itself (its build step skipped: the stack tests built dist/ once already).
    const help = execFileSync('npm', ['run', '--silent', '--ignore-scripts', 'connector', '--', '--help'], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    for (const command of [
      'check-config',
      'register-webhooks',
      'failures',
      'replay',
      'status',
      'shops',
      'resync',
      'link',
      'drift',
      'alerts',
    ]) {
      expect(help).toMatch(new RegExp(`^  ${command} `, 'm'));
    }
    expect(help).toContain('Exit codes: 0 ok, 1 failure, 2 usage error.');
  });

  it('exits 2 on a usage error, with one line saying what is wrong', async () => {
    const unknown = await cli('frobnicate');
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toContain("error: unknown command 'frobnicate'");
    const none = await runCli([], cliEnv);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage: connector');
    const neither = await cli('replay');
    expect(neither).toMatchObject({ code: 2 });
    expect(neither.stderr).toContain('connector: give a failure id, or --all (not both)');
    expect((await cli('replay', '7', '--all')).code).toBe(2);
    const limit = await cli('failures', '--limit', 'many');
    expect(limit.code).toBe(2);
    expect(limit.stderr).toContain("option '--limit <n>' argument 'many' is invalid");
    // A value only the admin API can judge: its 400 is a usage error too, with its message.
    const state = await cli('failures', '--state', 'lost');
    expect(state.code).toBe(2);
    expect(state.stderr.trim()).toBe(
      'connector: state must be one of open, replayed, dismissed, resolved. (bad_request, HTTP 400)',
    );
    const shop = await cli('check-config', '--shop', 'other.myshopify.com');
    expect(shop.code).toBe(2);
    expect(shop.stderr).toContain(
      `other.myshopify.com is not a configured shop (CONNECTOR_SHOPS: ${world.shop.domain})`,
    );
  });

  it('check-config passes a shop whose token, key and mapping fit (exit 0)', async () => {
    const run = await cli('check-config');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toBe(world.shop.domain);
    expect(lines[1]).toBe('  ok    Shopify Admin API 2026-07: the access token is accepted');
    expect(lines[2]).toMatch(
      new RegExp(`^  ok    catalog ${world.catalog.url} \\(key [0-9a-f]+\\): the key is accepted$`),
    );
    expect(lines[3]).toMatch(
      new RegExp(`^  ok    mapping ${world.mappingFile}: \\d+ entries fit the catalog account$`),
    );
    expect(lines.at(-1)).toBe('check-config: every shop is ready to sync');
    // the key itself is never printed
    expect(run.stdout).not.toContain(world.account.apiKey);
  });

  it('check-config names each problem: a revoked token, a refused key, mapping entries that do not fit (exit 1)', async () => {
    const write = async (name: string, edit: (yaml: string) => string) => {
      const path = join(world.dir, name);
      const yaml = edit(readFileSync(world.mappingFile, 'utf8'));
      await writeFile(path, yaml);
      return runCli(['check-config'], world.env({ [`CONNECTOR_SHOP_${world.shop.key}_MAPPING_FILE`]: path }));
    };
    // A file the format refuses (nothing feeds the catalog's required name), named by entry and line.
    const unreadable = await write('unreadable.yaml', (yaml) =>
      yaml.replace(/^ {2}title: name$/m, '  title: nam'),
    );
    expect(unreadable.code).toBe(1);
    expect(unreadable.stdout).toContain('  ok    Shopify Admin API 2026-07: the access token is accepted');
    expect(unreadable.stdout).toMatch(
      new RegExp(
        `FAIL {2}${world.shop.domain} \\(CONNECTOR_SHOP_${world.shop.key}_MAPPING_FILE\\): mapping .*unreadable\\.yaml refused \\(1 problem\\)`,
      ),
    );
    expect(unreadable.stdout).toMatch(/- \d+: product: no product field feeds "name"/);
    expect(unreadable.stderr.trim()).toBe('connector: check-config: 1 problem found');
    // A file that parses but does not fit the account: a category that is not a leaf, a size the
    // attribute does not allow.
    const misfit = await write('misfit.yaml', (yaml) =>
      yaml
        .replace('Shirts: apparel-tops-shirts', 'Shirts: apparel-tops')
        .replace('X-Large: XL', 'X-Large: XXXXL'),
    );
    expect(misfit.code).toBe(1);
    expect(misfit.stdout).toMatch(/ok {4}catalog .+: the key is accepted/);
    expect(misfit.stdout).toMatch(/FAIL {2}mapping .*misfit\.yaml.* refused \(2 problems\)/);
    expect(misfit.stdout).toMatch(
      /- \d+: product\.productType\.values\.Shirts: category "apparel-tops" is not a leaf/,
    );
    expect(misfit.stdout).toMatch(/- \d+: .*X-Large: "XXXXL" is not one of the values of size/);
    expect(misfit.stderr.trim()).toBe('connector: check-config: 1 problem found');

    const refused = await runCli(
      ['check-config'],
      world.env({
        [`CONNECTOR_SHOP_${world.shop.key}_ACCESS_TOKEN`]: 'shpat_revoked_token',
        CONNECTOR_CATALOG_API_KEY: 'not-a-key-of-this-catalog',
      }),
    );
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(
      new RegExp(`FAIL {2}Shopify Admin API 2026-07: .+ \\(CONNECTOR_SHOP_${world.shop.key}_ACCESS_TOKEN\\)`),
    );
    expect(refused.stdout).toMatch(
      /FAIL {2}catalog .+: .*(401|unauthori[sz]ed|invalid).*; mapping .+ not checked/i,
    );
    expect(refused.stderr.trim()).toBe('connector: check-config: 2 problems found');
    expect(refused.stdout + refused.stderr).not.toContain('not-a-key-of-this-catalog');
  });

  it('register-webhooks subscribes the product topics and app/uninstalled once, and a second run creates nothing (exit 0)', async () => {
    const uri = `${connector.url}/webhooks/shopify`;
    const first = await cli('register-webhooks');
    expect(first.code).toBe(0);
    expect(first.stdout.trim()).toBe(
      `${world.shop.domain}: webhooks go to ${uri}: created PRODUCTS_CREATE, PRODUCTS_UPDATE, PRODUCTS_DELETE, APP_UNINSTALLED`,
    );
    const again = await cli('register-webhooks');
    expect(again.code).toBe(0);
    expect(again.stdout.trim()).toBe(
      `${world.shop.domain}: webhooks go to ${uri}: created none; already subscribed PRODUCTS_CREATE, PRODUCTS_UPDATE, PRODUCTS_DELETE, APP_UNINSTALLED`,
    );
    const listed = await fetch(`${world.shopify.adminUrl}/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': world.shop.accessToken },
      body: JSON.stringify({ query: '{ webhookSubscriptions(first: 50) { nodes { topic uri } } }' }),
    });
    const { data } = (await listed.json()) as {
      data: { webhookSubscriptions: { nodes: Array<{ topic: string; uri: string }> } };
    };
    expect(
      data.webhookSubscriptions.nodes
        .filter((n) => n.uri === uri)
        .map((n) => n.topic)
        .sort(),
    ).toEqual(['APP_UNINSTALLED', 'PRODUCTS_CREATE', 'PRODUCTS_DELETE', 'PRODUCTS_UPDATE']);
    const noPublicUrl = await runCli(['register-webhooks'], world.env());
    expect(noPublicUrl.code).toBe(2);
    expect(noPublicUrl.stderr.trim()).toBe(
      'connector: no public URL: set CONNECTOR_PUBLIC_URL or pass --public-url',
    );
  });

  it('register-webhooks subscribes the collection topics too for a mapping whose scope names collections', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cli-scope-'));
    const scoped = join(dir, 'scoped.yaml');
    await writeFile(
      scoped,
      `${readFileSync(world.mappingFile, 'utf8').trimEnd()}\nscope:\n  collections: [summer]\n`,
    );
    const publicUrl = `http://127.0.0.1:${await freePort()}`;
    const run = await runCli(
      ['register-webhooks'],
      world.env({
        CONNECTOR_PUBLIC_URL: publicUrl,
        [`CONNECTOR_SHOP_${world.shop.key}_MAPPING_FILE`]: scoped,
      }),
    );
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(
      `${world.shop.domain}: webhooks go to ${publicUrl}/webhooks/shopify: created PRODUCTS_CREATE, PRODUCTS_UPDATE, PRODUCTS_DELETE, APP_UNINSTALLED, COLLECTIONS_CREATE, COLLECTIONS_UPDATE, COLLECTIONS_DELETE`,
    );
  });

  it('shops lists every shop with its auth kind and state, never a token (exit 0)', async () => {
    const run = await cli('shops');
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toBe(`${world.shop.domain}: static (configured), active, live`);
    expect(lines[1]).toMatch(/^ {2}token expires never, scopes -, last refresh - \(0 tokens\)$/);
    expect(lines[2]).toMatch(/^ {2}subscriptions .*, catalog key set, mapping .*$/);
    const json = await cli('shops', '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({
      shops: [{ shop: world.shop.domain, authKind: 'static', state: 'active', catalogKeySet: true }],
    });
    expect(run.stdout + json.stdout).not.toContain('shpat_');
  });

  it('shops reencrypt says what is left under old encryption keys, as shops does (exit 0)', async () => {
    const run = await cli('shops', 'reencrypt');
    expect(run.code, run.stderr).toBe(0);
    // This connector keeps no secret (a static shop, no CONNECTOR_ENCRYPTION_KEYS).
    expect(run.stdout.trim()).toBe('0 secrets re-encrypted under key -; 0 left under old keys, 0 unreadable');
    const list = await cli('shops');
    expect(list.stdout.trim().split('\n').at(-1)).toBe(
      'encryption key -: 0 secrets under old keys, 0 unreadable',
    );
  });

  it('shops catalog-key and mapping: a configured shop is set in its environment (exit 1), a missing argument is a usage error (exit 2)', async () => {
    const keyFile = join(await mkdtemp(join(tmpdir(), 'cli-key-')), 'key');
    await writeFile(keyFile, 'a-catalog-key\n');
    const configured = await cli('shops', 'catalog-key', world.shop.domain, '--key-file', keyFile);
    expect(configured.code).toBe(1);
    expect(configured.stderr).toContain('is configured in the environment');
    expect(configured.stderr).toContain('(shop_configured, HTTP 409)');
    expect(configured.stderr + configured.stdout).not.toContain('a-catalog-key');
    const neither = await cli('shops', 'mapping', world.shop.domain);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('give the mapping file, or --default');
  });

  it('shops mode switches a shop between live and shadow (exit 0); another mode is a usage error (exit 2)', async () => {
    const shadow = await cli('shops', 'mode', world.shop.domain, 'shadow');
    expect(shadow.code, shadow.stderr).toBe(0);
    expect(shadow.stdout.split('\n')[0]).toBe(`${world.shop.domain}: static (configured), active, shadow`);
    const live = await cli('shops', 'mode', world.shop.domain, 'live');
    expect(live.code).toBe(0);
    expect(live.stdout.split('\n')[0]).toBe(`${world.shop.domain}: static (configured), active, live`);
    const other = await cli('shops', 'mode', world.shop.domain, 'dry');
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('the mode is live or shadow');
  });

  it('preview prints what a shop in shadow would send (none here), as lines, JSON or CSV (exit 0)', async () => {
    const run = await cli('preview', world.shop.domain);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(
      `${world.shop.domain} (live): 0 creates, 0 patches, 0 deletes, 0 uploads, 0 write-backs planned; 0 conflicts, 0 mapping gaps`,
    );
    const json = await cli('preview', world.shop.domain, '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({
      shop: world.shop.domain,
      counts: { total: 0 },
      products: [],
    });
    const csv = await cli('preview', world.shop.domain, '--csv');
    expect(csv.stdout.trim()).toBe('productId,source,supplierSku,calls,field,before,after');
    const unknown = await cli('preview', 'nobody.myshopify.com');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('(not_found, HTTP 404)');
  });

  it('failures lists the inbox with filters; replay runs one again, or all; a failure not open exits 1', async () => {
    // The webhooks register-webhooks subscribes (idempotent: maybe done above) bring the product to
    // the connector, whose revoked token fails the sync for good.
    expect((await cli('register-webhooks')).code).toBe(0);
    const productId = await world.createProduct({ title: 'Failing shirt', vendor: 'Acme' });
    const [failure] = await eventually(async () => {
      const open = await openFailures();
      return open.length > 0 && open;
    });
    expect(failure).toMatchObject({
      subjectKey: productId,
      state: 'open',
      error: { code: 'shopify_unauthorized' },
    });

    const list = await cli('failures', '--shop', world.shop.domain);
    expect(list.code).toBe(0);
    const [line, footer] = list.stdout.trim().split('\n');
    expect(line).toMatch(
      new RegExp(
        `^#${failure?.id} {2}open {2}${world.shop.domain} {2}sync-product ${productId} {2}shopify_unauthorized \\(permanent\\) {2}attempts \\d+ {2}last \\S+ {2}.+`,
      ),
    );
    expect(footer).toBe('1-1 of 1');
    const none = await cli('failures', '--state', 'dismissed');
    expect(none).toMatchObject({ code: 0, stdout: 'No failures (0 match).\n' });

    const replayed = await cli('replay', failure?.id as string);
    expect(replayed.code).toBe(0);
    expect(replayed.stdout.trim()).toBe(
      `Failure #${failure?.id} replayed: sync-product ${productId} (${world.shop.domain}) runs again; it is now replayed.`,
    );
    const twice = await cli('replay', failure?.id as string);
    expect(twice).toMatchObject({ code: 1, stdout: '' });
    expect(twice.stderr.trim()).toBe(
      `connector: Failure ${failure?.id} is replayed: only open failures can be replayed or dismissed. (failure_not_open, HTTP 409)\n` +
        '  next: The failure was replayed, dismissed or resolved already: the failures list shows its state.',
    );
    const unknown = await cli('replay', '999999999');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('connector: No failure 999999999. (not_found, HTTP 404)');

    // The replayed sync fails again (the token is still revoked): a new open failure, replayed by --all.
    const [again] = await eventually(async () => {
      const open = await openFailures();
      return open.length > 0 && open;
    });
    expect(again?.id).not.toBe(failure?.id);
    const all = await cli('replay', '--all', '--shop', world.shop.domain);
    expect(all.code).toBe(0);
    expect(all.stdout.trim()).toBe(`Replayed 1 failure: #${again?.id}.`);
  });

  it('refuses without the right admin token, never printing it, and says when the connector cannot be reached (exit 1)', async () => {
    const wrong = await runCli(['--url', connector.url, 'failures'], {
      ...cliEnv,
      CONNECTOR_ADMIN_TOKEN: 'a-wrong-admin-token-000',
    });
    expect(wrong.code).toBe(1);
    // The API's next step follows on its own line (the causes table's words).
    expect(wrong.stderr).toMatch(
      /^connector: .+ \(unauthorized, HTTP 401\)\n {2}next: Send `Authorization: Bearer <CONNECTOR_ADMIN_TOKEN>`.*\n$/,
    );
    expect(wrong.stdout + wrong.stderr).not.toContain('a-wrong-admin-token-000');
    const { CONNECTOR_ADMIN_TOKEN: _token, ...withoutToken } = cliEnv;
    const unset = await runCli(['--url', connector.url, 'failures'], withoutToken);
    expect(unset.code).toBe(1);
    expect(unset.stderr.trim()).toBe(
      'connector: CONNECTOR_ADMIN_TOKEN (or CONNECTOR_ADMIN_TOKEN_FILE) is not set: the admin API cannot be called.',
    );
    const port = await freePort();
    const away = await runCli(['--url', `http://127.0.0.1:${port}`, 'failures'], cliEnv);
    expect(away.code).toBe(1);
    expect(away.stderr.trim()).toBe(
      `connector: cannot reach the connector at http://127.0.0.1:${port} (ECONNREFUSED): is it running? (--url)`,
    );
    // a configuration error is one line naming the variable
    const bad = await runCli(['failures'], { ...cliEnv, CONNECTOR_SYNC_STATUSES: 'SOMETIMES' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^connector: configuration: [\s\S]*CONNECTOR_SYNC_STATUSES must list/);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  });
});
