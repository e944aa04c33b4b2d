import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './support/connector-world.js';
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
// catalog key deactivated in the portal (the breaker opens at the next poll); the catalog's
// enrichment finished half an hour ago (a portal fixture: the poll lags more than twice its
// 60 s interval).
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
  };
  const accounts = {
    backlog: { id: `states-backlog-${id}`, key: `states-backlog-key-${id}` },
    breaker: { id: `states-breaker-${id}`, key: `states-breaker-key-${id}` },
    mapping: { id: `states-mapping-${id}`, key: `states-mapping-key-${id}` },
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
    stack = await startLocalStack(env);
    http = new DemoStackHttp(stack);
    cookie = await http.signIn();
  }, 240_000);
  afterAll(async () => {
    await stack?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('drives each rule over HTTP and shows it with its reason on GET /admin/overview and /admin/ui', async () => {
    const { paused, uninstalled, reauth, mapping, backlog, breaker, failures } = shops;
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

    // Each shop: its state and every reason, worst first. The breaker shop's key is refused by
    // whichever asks first: the poll (the refusal is its open failure, listed after the breaker)
    // or the mapping check, every second (it opens the breaker, and the poll then waits for the
    // paused catalog instead of failing): either order is right, so that failure may be there.
    const maybe = new Map([[breaker.domain, /^open failures: 1 enrichment-poll$/]]);
    const shownReasons = (domain: string, reasons: readonly string[]) =>
      reasons.filter((reason) => !maybe.get(domain)?.test(reason));
    const expected: Array<[string, string, RegExp[]]> = [
      [demo, 'healthy', [/^everything gets through$/]],
      [paused.domain, 'failing', [/^syncing is paused by an operator \(maintenance\)$/]],
      [uninstalled.domain, 'failing', [/^the app is uninstalled$/]],
      [
        reauth.domain,
        'failing',
        [
          /^Shopify refuses its token: it needs to be authorised again \(invalid_request: The app is not installed on this shop\.\)$/,
        ],
      ],
      [
        mapping.domain,
        'failing',
        [
          /^its mapping is invalid \(.*variant\.compareAtPrice: attribute "compareAtPrice" does not exist in the catalog account\)$/s,
        ],
      ],
      [backlog.domain, 'failing', [/^\d+ deliveries wait for their sync, the oldest for \d+ s$/]],
      [breaker.domain, 'degraded', [/^the catalog breaker is (open|half-open)$/]],
      [failures.domain, 'degraded', [/^open failures: 1 sync-product$/]],
    ];
    const matches = (all: Map<string, ShopState>) =>
      expected.every(([domain, state, reasons]) => {
        const found = all.get(domain);
        const shown = shownReasons(domain, found?.reasons ?? []);
        return (
          found?.state === state &&
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
    const html = await http.page(cookie);
    for (const [domain, state, reasons] of expected) {
      expect(row(html, domain).state, domain).toBe(state);
      // The page joins the reasons with "; ".
      const source = (reason: RegExp) => reason.source.replace(/^\^/, '').replace(/\$$/, '');
      const shown = reasons.map(source).join('; ');
      const optional = maybe.get(domain);
      const tail = optional ? `(; ${source(optional)})?` : '';
      expect(row(html, domain).reasons, domain).toMatch(new RegExp(`^${shown}${tail}$`, 's'));
    }
    expect(last.get(demo)?.reasons).toEqual(['everything gets through']);
    expect(last.get(failures.domain)?.authState).toBe('active');

    // The catalog finished an enrichment in the demo account half an hour ago (its write became
    // visible late): after a poll, the checkpoint is that old, more than twice the 60 s interval.
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
    expect((await http.admin('POST', '/admin/enrichment/poll')).status).toBe(200);
    const lag = /^the enrichment poll lags 3\d min \(more than twice its 60 s interval\)$/;
    await eventually(async () => {
      last = await http.states();
      return last.get(demo)?.state === 'degraded';
    }, 30_000);
    expect(last.get(demo)?.reasons).toEqual([expect.stringMatching(lag)]);
    const after = await http.page(cookie);
    expect(row(after, demo).state).toBe('degraded');
    expect(row(after, demo).reasons).toMatch(new RegExp(lag.source.slice(1, -1)));
  }, 120_000);
});
