import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, runCli } from './support/connector-world.js';
import { DemoStackHttp, overviewRow as row, type ShopState } from './support/demo-stack-http.js';
import { type LocalStack, repoRoot, startLocalStack } from './support/stack-process.js';

const MINUTE = 60_000;

// Every shop state rule of the overview (the connector's docs/admin-api.md, "Shop states") on the local stack
// of the README's quick start (`npm start`: both sandboxes and the connector as real processes,
// the demo shop on the demo catalog account), with one shop of its own per rule added through the
// stack's configuration (the Shopify sandbox's shops, the connector's CONNECTOR_SHOPS, three more
// catalog accounts like the demo one in the catalog sandbox's seed), the backlog threshold at 1 s
// and the mapping check every second. Each rule is then driven over HTTP only, by what causes
// it: an operator's pause (admin API); an uninstall (the Shopify sandbox's control API sends
// app/uninstalled); Shopify refusing a client-credentials shop's grant after an uninstall whose
// webhook never came (the app's subscription deleted through the Admin API first); a revoked
// static token (an open failure); a catalog account made again without an attribute the mapping
// writes (portal API: the mapping, valid at boot, is invalid at its next check); a catalog
// create answered after 2 minutes (a latency fault: the deliveries wait for their sync); a
// catalog key deactivated in the portal (the breaker opens at the next poll); a catalog account
// answering 500 to every product create (the portal's fault switch): failing, the cause names the
// 500s and their share. Each non-healthy shop's cause and next step are read on GET
// /admin/overview, the overview page and `connector status`. Last, the catalog's enrichment
// finished half an hour ago (a portal fixture): after a poll the demo shop is still healthy (the
// poll lag is the time since the last poll finished its work, not the enrichment's age).
describe('the demo stack shows every shop state rule', () => {
  let stack: LocalStack;
  let dir: string;
  let cookie: string;
  let http: DemoStackHttp;
  let demoAccount: Record<string, unknown>;
  const id = randomBytes(3).toString('hex');
  const shop = (name: string) => ({
    domain: `st${name}${id}.myshopify.com`,
    key: `ST${name.toUpperCase()}${id.toUpperCase()}`,
    token: `shpat_states_${name}_${randomBytes(8).toString('hex')}`,
  });
  const demo = 'demo.myshopify.com';
  const shops = {
    paused: shop('paused'),
    uninstalled: shop('uninstalled'),
    reauth: shop('reauth'),
    mapping: shop('mapping'),
    backlog: shop('backlog'),
    breaker: shop('breaker'),
    failures: shop('failures'),
    errors: shop('errors'),
  };
  const accounts = {
    backlog: { id: `states-backlog-${id}`, key: `states-backlog-key-${id}` },
    breaker: { id: `states-breaker-${id}`, key: `states-breaker-key-${id}` },
    mapping: { id: `states-mapping-${id}`, key: `states-mapping-key-${id}` },
    errors: { id: `states-errors-${id}`, key: `states-errors-key-${id}` },
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'demo-states-'));
    const mapping = join(dir, 'mapping.yaml');
    const demoMapping = await readFile(join(repoRoot, 'apps/connector/mappings/demo.yaml'), 'utf8');
    await writeFile(mapping, demoMapping.replace(/^shop: .*$/m, ''));
    // The default seed (the demo account), and three accounts like it with keys of their own.
    const seed = JSON.parse(
      await readFile(join(repoRoot, 'apps/catalog-sandbox/seed/default.json'), 'utf8'),
    ) as { accounts: Array<Record<string, unknown>> };
    demoAccount = seed.accounts[0] as Record<string, unknown>;
    for (const account of Object.values(accounts)) {
      seed.accounts.push({
        ...demoAccount,
        id: account.id,
        apiKeys: [{ key: account.key, permissions: ['*'] }],
      });
    }
    const seedFile = join(dir, 'seed.json');
    await writeFile(seedFile, JSON.stringify(seed));

    const env: Record<string, string> = {
      CATALOG_SANDBOX_SEED: seedFile,
      SHOPIFY_SANDBOX_SHOPS: [
        `${demo}:shpat_sandbox_demo_token`,
        ...Object.values(shops).map((s) => `${s.domain}:${s.token}`),
      ].join(','),
      CONNECTOR_SHOPS: [demo, ...Object.values(shops).map((s) => s.domain)].join(','),
      CONNECTOR_OVERVIEW_BACKLOG_FAILING_MS: '1000',
      // Each checked mapping is checked again against its account every second.
      CONNECTOR_MAPPING_REFRESH_MS: '1000',
    };
    for (const [name, s] of Object.entries(shops)) {
      env[`CONNECTOR_SHOP_${s.key}_MAPPING_FILE`] = mapping;
      if (name === 'reauth') env[`CONNECTOR_SHOP_${s.key}_AUTH`] = 'client-credentials';
      else env[`CONNECTOR_SHOP_${s.key}_ACCESS_TOKEN`] = s.token;
    }
    env[`CONNECTOR_SHOP_${shops.backlog.key}_CATALOG_API_KEY`] = accounts.backlog.key;
    env[`CONNECTOR_SHOP_${shops.breaker.key}_CATALOG_API_KEY`] = accounts.breaker.key;
    env[`CONNECTOR_SHOP_${shops.mapping.key}_CATALOG_API_KEY`] = accounts.mapping.key;
    env[`CONNECTOR_SHOP_${shops.errors.key}_CATALOG_API_KEY`] = accounts.errors.key;
    stack = await startLocalStack(env);
    http = new DemoStackHttp(stack);
    cookie = await http.signIn();
  }, 240_000);
  afterAll(async () => {
    await stack?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('drives each rule over HTTP and shows it with its reason on GET /admin/overview and /admin/ui', async () => {
    const { paused, uninstalled, reauth, mapping, backlog, breaker, failures, errors } = shops;
    // An operator's pause.
    expect(
      (await http.admin('POST', `/admin/sync/pause?shop=${paused.domain}&reason=maintenance`)).status,
    ).toBe(200);
    // The merchant uninstalls the app: Shopify sends app/uninstalled (to the connector's subscription).
    await http.uninstallSubscriptions(uninstalled.token);
    expect((await http.control('POST', `shops/${uninstalled.domain}/uninstall`, {})).status).toBe(200);
    // Unheard uninstalls: the connector learns of them at its next call to Shopify (a resync).
    await http.uninstallUnheard(reauth.domain, await http.clientCredentialsToken(reauth.domain));
    await http.uninstallUnheard(failures.domain, failures.token);
    for (const s of [reauth, failures]) {
      expect((await http.admin('POST', `/admin/resync?shop=${s.domain}&product=7390000999001`)).status).toBe(
        200,
      );
    }
    // The mapping shop's catalog account is made again without compareAtPrice, which its mapping
    // writes: its mapping, valid at boot, no longer fits at its next check.
    await eventually(async () => (await http.states()).get(mapping.domain)?.state === 'healthy', 30_000);
    await http.portal('DELETE', `accounts/${accounts.mapping.id}`);
    await http.portal('POST', 'accounts', {
      ...demoAccount,
      id: accounts.mapping.id,
      apiKeys: [{ key: accounts.mapping.key, permissions: ['*'] }],
      attributes: (demoAccount.attributes as Array<{ key: string }>).filter(
        (a) => a.key !== 'compareAtPrice',
      ),
    });
    // The backlog shop's catalog account answers a create only after 2 minutes (the longest
    // latency fault): the merchant's new product's deliveries wait for their sync.
    await http.portal('PUT', `accounts/${accounts.backlog.id}/faults`, {
      latency: { ms: 2 * MINUTE, method: 'POST', path: '/v1/products' },
    });
    await http.merchantProduct(backlog.token, 'Backlog shirt');
    // The breaker shop's catalog key is deactivated: the next poll is refused and opens its breaker.
    const { apiKeys } = (await http.portal('GET', `accounts/${accounts.breaker.id}/api-keys`)) as {
      apiKeys: Array<{ id: string }>;
    };
    const keyId = apiKeys[0]?.id as string;
    await http.portal('POST', `accounts/${accounts.breaker.id}/api-keys/${keyId}/deactivate`);
    expect((await http.admin('POST', '/admin/enrichment/poll')).status).toBe(200);
    // The errors shop's catalog account answers 500 to every product create.
    await http.portal('PUT', `accounts/${accounts.errors.id}/faults`, {
      error500: { method: 'POST', path: '/v1/products' },
    });
    await http.merchantProduct(errors.token, 'Wool scarf');
    await http.merchantProduct(errors.token, 'Silk tie');

    // Each shop: its state, every reason (worst first), its cause and its next step's page. Some
    // reasons may come or not, by timing: the breaker shop's key is refused by whichever asks
    // first, the poll (its refusal an open failure) or the mapping check every second (the
    // breaker opens, and the poll then waits for the paused catalog instead of failing), and its
    // polls no longer finish (no poll for it finished in 2 minutes, if the test runs that long);
    // the errors shop's deliveries wait (the backlog rule), its breaker opens, and its syncs end
    // as open failures whose codes name the 500s.
    const optional = new Map<string, RegExp[]>([
      [
        breaker.domain,
        [
          /^open failures: 1 enrichment-poll: .+$/,
          /^no enrichment poll has finished its work for \d+ (s|min) .+$/,
        ],
      ],
      [
        errors.domain,
        [
          /^(\d+ deliveries wait for their sync, the oldest|1 delivery waits for its sync,) for \d+ s$/,
          /^the catalog breaker is (open|half-open)$/,
          /^open failures: \d sync-product: .+$/,
        ],
      ],
    ]);
    // Any shop whose test products have no barcode may also show its mapping gaps (the demo
    // mapping reads productModel from it): a true reason, checked on its own in mapping-gaps.e2e.
    const gaps = /^\d+ of \d+ products? cannot be fully enriched .+$/;
    const shownReasons = (domain: string, reasons: readonly string[]) =>
      reasons.filter(
        (reason, i) => i === 0 || !(gaps.test(reason) || optional.get(domain)?.some((o) => o.test(reason))),
      );
    const expected: Array<[string, string, RegExp[], string | null, string | null]> = [
      [demo, 'healthy', [/^everything gets through$/], null, null],
      [
        paused.domain,
        'failing',
        [/^syncing is paused by an operator \(maintenance\)$/],
        'operator_pause',
        `/admin/ui/shops/${paused.domain}/resume`,
      ],
      [uninstalled.domain, 'failing', [/^the app is uninstalled$/], 'app_uninstalled', '/admin/ui/shops'],
      [
        reauth.domain,
        'failing',
        [
          /^Shopify refuses its token: it needs to be authorised again \(invalid_request: The app is not installed on this shop\.\)$/,
        ],
        'shopify_token_refused',
        '/admin/ui/shops',
      ],
      [
        mapping.domain,
        'failing',
        [
          /^its mapping is invalid \(.*variant\.compareAtPrice: attribute "compareAtPrice" does not exist in the catalog account\)$/s,
        ],
        'mapping_invalid',
        `/admin/ui/shops/${mapping.domain}/preview`,
      ],
      [
        backlog.domain,
        'failing',
        [/^(\d+ deliveries wait for their sync, the oldest|1 delivery waits for its sync,) for \d+ s$/],
        'sync_backlog',
        `/admin/ui/deliveries?shop=${backlog.domain}&state=received`,
      ],
      [
        breaker.domain,
        'degraded',
        [/^the catalog breaker is (open|half-open)$/],
        'catalog_breaker_open',
        '/admin/ui/catalog-calls?hours=1',
      ],
      [
        failures.domain,
        'degraded',
        [/^open failures: 1 sync-product: Shopify refuses the shop's token \(401\)$/],
        'shopify_token_refused',
        '/admin/ui/shops',
      ],
      [
        errors.domain,
        'failing',
        [/^the catalog answers 500 to 100% of product writes \((\d+) of \1 in the last 5 min\)$/],
        'catalog_server_errors',
        '/admin/ui/catalog-calls?hours=1',
      ],
    ];
    const matches = (all: Map<string, ShopState>) =>
      expected.every(([domain, state, reasons, code]) => {
        const found = all.get(domain);
        const shown = shownReasons(domain, found?.reasons ?? []);
        return (
          found?.state === state &&
          (found.cause?.code ?? null) === code &&
          shown.length === reasons.length &&
          reasons.every((reason, i) => reason.test(shown[i] ?? ''))
        );
      });
    let last = new Map<string, ShopState>();
    await eventually(async () => {
      last = await http.states();
      return matches(last);
    }, 45_000).catch((error: unknown) => {
      throw new Error(
        `${String(error)}\n${JSON.stringify([...last.values()], null, 1)}\n${stack.process.output().slice(-4000)}`,
      );
    });
    for (const [domain, , , code, href] of expected) {
      const found = last.get(domain);
      expect(found?.cause?.text ?? null, domain).toBe(code === null ? null : found?.reasons[0]);
      expect(found?.next?.href ?? null, domain).toBe(href);
    }
    expect(last.get(errors.domain)?.next?.command).toBe(
      `npm run connector -- replay --all --shop ${errors.domain}`,
    );
    const html = await http.page(cookie);
    for (const [domain, state, reasons, , href] of expected) {
      const shown = row(html, domain);
      expect(shown.state, domain).toBe(state);
      // The page joins the reasons with "; ", the worst first.
      const first = (reasons[0] as RegExp).source.replace(/^\^/, '').replace(/\$$/, '');
      expect(shown.reasons, domain).toMatch(new RegExp(`^${first}`, 's'));
      const next = last.get(domain)?.next;
      if (next) expect(shown.next, domain).toContain(next.text);
      if (href) expect(shown.next, domain).toContain(`<a href="${href}">`);
    }
    expect(last.get(demo)?.reasons).toEqual(['everything gets through']);
    expect(last.get(failures.domain)?.authState).toBe('active');

    // `connector status` says the same: each shop's state, its reasons and their next steps.
    const status = await runCli(['--url', stack.url('connector'), 'status'], {});
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(`${demo}: healthy\n  everything gets through`);
    expect(status.stdout).toMatch(
      new RegExp(
        `^${errors.domain.replaceAll('.', '\\.')}: failing\\n  failing: the catalog answers 500 to 100% of product writes \\(\\d+ of \\d+ in the last 5 min\\)\\n    next: The catalog's own fault: .+/admin/ui/catalog-calls\\?hours=1  \\$ npm run connector -- replay --all --shop ${errors.domain.replaceAll('.', '\\.')}$`,
        'm',
      ),
    );
    expect(status.stdout).toContain(
      `${paused.domain}: failing\n  failing: syncing is paused by an operator (maintenance)`,
    );

    // The catalog finished an enrichment in the demo account half an hour ago (its write became
    // visible late): after a poll, its checkpoint is that old, but the poll finished just now,
    // and a quiet catalog is no lag: the demo shop stays healthy.
    const at = Date.now() - 30 * MINUTE;
    await http.portal('POST', 'accounts/demo/products/bulk', {
      products: [
        {
          supplierSku: `STATES-LAG-${id}`,
          createdAt: at - MINUTE,
          attributes: [
            { key: 'name', value: 'Late linen shirt' },
            { key: 'brand', value: 'Acme' },
          ],
          dataEnrichment: { status: 'FINISHED', completedAt: at },
        },
      ],
    });
    const polled = await http.admin('POST', '/admin/enrichment/poll');
    expect(polled.status).toBe(200);
    await eventually(async () => {
      const run = await http.admin('GET', `/admin/enrichment/poll/${polled.body.id as string}`);
      return run.body.status !== 'queued' && run.body.status !== 'running';
    }, 30_000);
    last = await http.states();
    expect(last.get(demo)).toMatchObject({
      state: 'healthy',
      reasons: ['everything gets through'],
      cause: null,
    });
    expect(row(await http.page(cookie), demo).state).toBe('healthy');
  }, 120_000);
});
