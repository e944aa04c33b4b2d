import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  type ConnectorProcess,
  type ConnectorWorld,
  eventually,
  startConnectorProcess,
  startConnectorWorld,
} from './support/connector-world.js';
import { freePort, sleep } from './support/stack-process.js';

/** Shopify's expiring offline tokens, shortened (SHOPIFY_SANDBOX_TOKEN_TTL_S=3). */
const TOKEN_TTL_S = 3;
/** The scenario: a merchant edit every TICK_MS for RUN_MS. */
const RUN_MS = 48_000;
const TICK_MS = 3_000;
/** Products created at the first ticks; one more halfway through. */
const FIRST_PRODUCTS = 4;
const LATE_CREATE_TICK = 8;
/** What the catalog's reviewer approves of each enrichment (both written back by the demo mapping). */
const APPROVED = ['seoTitle', 'material'];
/** The library refuses OAuth requests from bots (`isbot`): the merchant uses a browser. */
const BROWSER = {
  'User-Agent':
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15',
};
const SHOPIFY_STATE = `query ExpiringTokensState($id: ID!) {
  product(id: $id) { title seo { title } metafields(first: 20) { nodes { key value } } }
}`;

interface ShopEntry {
  shop: string;
  authKind: string;
  state: string;
  refreshCount: number;
  lastRefreshAt: string | null;
  tokenExpiresAt: string | null;
}

/** One product of the scenario: what the merchant and the catalog's people last did to it. */
interface Product {
  id: string;
  title: string;
  skuId?: string;
  /** The values Shopify must show at the end: approved by review, then a person's seoTitle edits. */
  expected?: { seoTitle: string; material: string };
}

// The acceptance scenario of expiring tokens (issue 28), in real processes: two connector
// replicas (one schema, one queue namespace) serve ONE installed shop whose offline tokens live
// 3 s. For 48 s a merchant creates and edits products every 3 s, the catalog enriches them and its
// people approve and edit values, the scheduled poll writes them back: every product ends synced
// and written back, with no failure, the pair renewed at least 15 times under the shared row lock
// (never needs_reauth: the rotating refresh token never lost), and no Admin API 401 beyond one
// per renewal that came late.
describe('two replicas, one installed shop, 3 s tokens, 48 s of merchant edits', () => {
  let world: ConnectorWorld;
  let replicas: ConnectorProcess[] = [];
  let db: pg.Pool;
  const schema = `exp_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  let adminApi401 = 0;
  const count401 = (req: IncomingMessage, res: ServerResponse) => {
    res.on('finish', () => {
      if (res.statusCode === 401 && req.url?.startsWith('/admin/api/')) adminApi401 += 1;
    });
  };

  const admin = async <T>(url: string, method: string, path: string): Promise<T> => {
    const answer = await fetch(`${url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${world.adminToken}` },
    });
    if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${await answer.text()}`);
    return (await answer.json()) as T;
  };
  const shopEntry = async (url: string) =>
    (await admin<{ shops: ShopEntry[] }>(url, 'GET', '/admin/shops')).shops.find(
      (s) => s.shop === world.shop.domain,
    );
  const merchant = async (method: string, path: string, body: unknown) => {
    const answer = await fetch(`${world.shopify.adminUrl}/${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': world.shop.accessToken },
      body: JSON.stringify(body),
    });
    const parsed = (await answer.json()) as { product?: { id: number } };
    if (!answer.ok || !parsed.product) throw new Error(`${method} ${path}: ${answer.status}`);
    return String(parsed.product.id);
  };
  const shopifyGraphql = async <T>(query: string, variables: Record<string, unknown> = {}): Promise<T> => {
    const answer = await fetch(`${world.shopify.adminUrl}/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': world.shop.accessToken },
      body: JSON.stringify({ query, variables }),
    });
    return ((await answer.json()) as { data: T }).data;
  };
  const portal = async (method: 'post' | 'patch' | 'get', path: string, body?: unknown) => {
    const base = `/portal/v1/accounts/${world.account.id}`;
    const answer = await world.catalog.portal[method](`${base}${path}`, body);
    if (answer.status !== 200) throw new Error(`portal ${path}: ${JSON.stringify(answer.body)}`);
    return answer.body.data;
  };
  /** The product's catalog record (by the connector's supplierSku), or undefined before its first sync. */
  const catalogRecord = async (productId: string) => {
    const supplierSku = `${world.shop.domain.replace('.myshopify.com', '')}:product:${productId}`;
    const found = await world.account.api
      .post('/v1/products/search')
      .send({ filter: { supplierSku: { $eq: supplierSku } } });
    return found.body?.data?.products?.[0] as
      | { skuId: string; attributes: Array<{ key: string; value: unknown }> }
      | undefined;
  };
  const attribute = (record: { attributes: Array<{ key: string; value: unknown }> }, key: string) =>
    record.attributes.find((a) => a.key === key)?.value;

  beforeAll(async () => {
    world = await startConnectorWorld({ shopify: { oauth: { tokenTtlS: TOKEN_TTL_S, autoApprove: true } } });
    // The sandbox's Admin API request log keeps no unauthenticated request: its server counts them.
    (world.shopify.sandbox.app.getHttpServer() as Server).on('request', count401);
    db = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    const env = world.env({
      [`CONNECTOR_SHOP_${world.shop.key}_ACCESS_TOKEN`]: undefined,
      [`CONNECTOR_SHOP_${world.shop.key}_AUTH`]: 'installed',
      CONNECTOR_SHOPIFY_CLIENT_ID: world.shopify.clientId,
      CONNECTOR_SHOPIFY_CLIENT_SECRET: world.shopify.appSecret,
      CONNECTOR_ENCRYPTION_KEYS: randomBytes(32).toString('base64'),
      // Behind one load balancer: both replicas are reached at replica 0's URL.
      CONNECTOR_PUBLIC_URL: publicUrl,
      CONNECTOR_SHOPIFY_REAUTH_RECHECK_MS: '500',
      CONNECTOR_MEDIA_ENABLED: 'false',
      CONNECTOR_ENRICHMENT_POLL_INTERVAL_MS: '1000',
      CONNECTOR_ENRICHMENT_WATCHLIST_INTERVAL_MS: '0',
      CONNECTOR_ENRICHMENT_PUSH_BACKOFF_MS: '50',
      CONNECTOR_ENRICHMENT_LOCK_RETRY_MS: '50',
    });
    const allowed = await world.shopify.control('PUT', `apps/${world.shopify.clientId}`, {
      redirectUrls: [`${publicUrl}/auth/shopify/callback`],
    });
    expect(allowed.status).toBeLessThan(300);
    replicas = await Promise.all([
      startConnectorProcess(env, schema, port),
      startConnectorProcess(env, schema),
    ]);
  });
  afterAll(async () => {
    (world?.shopify.sandbox.app.getHttpServer() as Server | undefined)?.off('request', count401);
    await Promise.allSettled(replicas.map((replica) => replica.stop()));
    await db?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await db?.query(`DROP SCHEMA IF EXISTS "${schema}_q" CASCADE`).catch(() => undefined);
    await db?.end();
    await world?.close();
  });

  /** The merchant's browser through the install: `/auth/shopify`, the authorize page, the callback. */
  const install = async (replica: ConnectorProcess) => {
    const begun = await fetch(`${replica.url}/auth/shopify?shop=${world.shop.domain}`, {
      redirect: 'manual',
      headers: BROWSER,
    });
    expect(begun.status).toBe(302);
    const authorize = begun.headers.get('location') as string;
    expect(authorize.startsWith(world.shopify.url)).toBe(true);
    const cookie = begun.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const approved = await fetch(authorize, { redirect: 'manual', headers: BROWSER });
    expect(approved.status).toBe(302);
    const landed = await fetch(approved.headers.get('location') as string, {
      headers: { ...BROWSER, cookie },
    });
    expect(landed.status, await landed.clone().text()).toBe(200);
  };

  /** Enriches the record in the portal (one run, stepped to its end) and approves APPROVED. */
  const enrichAndApprove = async (product: Product) => {
    const skuId = product.skuId as string;
    const run = await portal('post', '/enrichment/runs', { skuIds: [skuId], mode: 'manual', batchSize: 1 });
    let state = run;
    for (let step = 0; step < 5 && state.status !== 'DONE'; step += 1) {
      state = await portal('post', `/enrichment/runs/${run.runId}/step`);
    }
    const item = (state.items as Array<{ skuId: string; status: string; filled?: string[] }>)[0];
    expect(item?.status, JSON.stringify(state)).toBe('FINISHED');
    expect(item?.filled).toEqual(expect.arrayContaining(APPROVED));
    await portal('post', `/products/${skuId}/review`, { approve: APPROVED });
    const record = await portal('get', `/products/${skuId}`);
    product.expected = {
      seoTitle: String(attribute(record, 'seoTitle')),
      material: String(attribute(record, 'material')),
    };
  };

  it('keeps every product synced and written back across 15+ renewals, no failure, no needless 401', async () => {
    // The 401 count sees an Admin API call with a token the sandbox does not know.
    const refused = await fetch(`${world.shopify.adminUrl}/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': 'shpat_unknown' },
      body: JSON.stringify({ query: '{ shop { name } }' }),
    });
    expect(refused.status).toBe(401);
    await eventually(async () => adminApi401 === 1);
    adminApi401 = 0;

    await install(replicas[0] as ConnectorProcess);
    expect(await shopEntry(replicas[1]?.url as string)).toMatchObject({
      authKind: 'installed',
      state: 'active',
      refreshCount: 1,
    });
    // The install subscribed the shop (at the public URL): the merchant's edits reach the replicas.
    await eventually(async () => {
      const data = await shopifyGraphql<{ webhookSubscriptions: { nodes: Array<{ uri: string }> } }>(
        '{ webhookSubscriptions(first: 50) { nodes { topic uri } } }',
      );
      return (
        data.webhookSubscriptions.nodes.filter((n) => n.uri === `${replicas[0]?.url}/webhooks/shopify`)
          .length === 4
      );
    });

    const products: Product[] = [];
    const states = new Set<string>();
    const startedAt = Date.now();
    for (let tick = 0; Date.now() - startedAt < RUN_MS; tick += 1) {
      const tickStart = Date.now();
      // The merchant: a create at the first ticks and halfway, otherwise an edit of one product.
      if (tick < FIRST_PRODUCTS || tick === LATE_CREATE_TICK) {
        const title = `Expiring tee ${products.length}`;
        const id = await merchant('POST', 'products.json', {
          product: {
            title,
            vendor: 'Acme',
            product_type: 'Tees',
            variants: [{ price: '10.00', barcode: '4006381333931' }],
          },
        });
        products.push({ id, title });
      } else {
        const product = products[tick % products.length] as Product;
        product.title = `Expiring tee ${products.indexOf(product)}, edit ${tick}`;
        await merchant('PUT', `products/${product.id}.json`, { product: { title: product.title } });
      }
      // The catalog: products synced since the last tick are enriched and reviewed.
      for (const product of products.filter((p) => p.expected === undefined)) {
        product.skuId ??= (await catalogRecord(product.id))?.skuId;
        if (product.skuId !== undefined) await enrichAndApprove(product);
      }
      // Halfway to the next edit, a person rewrites another product's SEO title in the portal:
      // the scheduled poll finds it and pushes it, between the merchant's edits.
      await sleep(Math.max(0, tickStart + TICK_MS / 2 - Date.now()));
      const enriched = products.filter((p) => p.expected !== undefined);
      const edited = enriched[(tick + 2) % Math.max(1, enriched.length)];
      if (edited?.expected !== undefined) {
        const seoTitle = `${edited.title}: the SEO title of tick ${tick}`;
        await portal('patch', `/products/${edited.skuId}`, {
          attributes: [{ key: 'seoTitle', value: seoTitle }],
        });
        edited.expected.seoTitle = seoTitle;
      }
      states.add((await shopEntry(replicas[tick % 2]?.url as string))?.state ?? 'missing');
      await sleep(Math.max(0, tickStart + TICK_MS - Date.now()));
    }

    // Every product's last edit reached the catalog.
    expect(products).toHaveLength(FIRST_PRODUCTS + 1);
    await eventually(async () => {
      for (const product of products) {
        const record = await catalogRecord(product.id);
        if (record === undefined || attribute(record, 'name') !== product.title) return false;
        expect(record.skuId).toBe(product.skuId);
      }
      return true;
    }, 20_000);
    // A poll asked for now, after the last change: its pushes done, Shopify shows every value.
    const poll = await admin<{ id: string }>(replicas[1]?.url as string, 'POST', '/admin/enrichment/poll');
    await eventually(async () => {
      const status = await admin<{ status: string; pushes: { pending: number } }>(
        replicas[1]?.url as string,
        'GET',
        `/admin/enrichment/poll/${poll.id}`,
      );
      if (status.status === 'failed') throw new Error(`poll failed: ${JSON.stringify(status)}`);
      return status.status === 'finished' && status.pushes.pending === 0;
    }, 20_000);
    for (const product of products) {
      expect(product.expected, `product ${product.id} was never enriched`).toBeDefined();
      const shown = await eventually(async () => {
        const data = await shopifyGraphql<{
          product: {
            title: string;
            seo: { title: string | null };
            metafields: { nodes: Array<{ key: string; value: string }> };
          };
        }>(SHOPIFY_STATE, { id: `gid://shopify/Product/${product.id}` });
        const state = {
          title: data.product.title,
          seoTitle: data.product.seo.title,
          material: data.product.metafields.nodes.find((m) => m.key === 'material')?.value,
        };
        return state.seoTitle === product.expected?.seoTitle && state;
      }, 20_000);
      expect(shown).toEqual({ title: product.title, ...product.expected });
    }

    // No failure, the shop active throughout (never needs_reauth: the refresh token never lost).
    for (const replica of replicas) {
      expect((await admin<{ total: number }>(replica.url, 'GET', '/admin/failures')).total).toBe(0);
    }
    expect([...states]).toEqual(['active']);
    const entry = await shopEntry(replicas[0]?.url as string);
    expect(entry?.state).toBe('active');
    expect(entry?.refreshCount).toBeGreaterThanOrEqual(15);
    // Each pair lived 3 s (the last one stored is the proof).
    expect(
      Date.parse(entry?.tokenExpiresAt ?? '') - Date.parse(entry?.lastRefreshAt ?? ''),
    ).toBeLessThanOrEqual(TOKEN_TTL_S * 1_000);
    // At most one 401 per renewal (a call that went out as its token expired: a late renewal),
    // never more; the install's grant is not a renewal.
    const renewals = (entry?.refreshCount ?? 0) - 1;
    const logged401 = replicas
      .map((replica) => replica.process.output().split('Admin API answered 401').length - 1)
      .reduce((a, b) => a + b, 0);
    expect(
      adminApi401,
      `${adminApi401} 401s (${logged401} logged), ${renewals} renewals`,
    ).toBeLessThanOrEqual(renewals);
    // Both replicas did the work: syncs (each reads the product from Shopify) and pushes (writes).
    for (const replica of replicas) {
      const metrics = await (await fetch(`${replica.url}/metrics`)).text();
      const runs = (kind: string) =>
        metrics
          .split('\n')
          .filter((line) => line.startsWith('connector_jobs_total{') && line.includes(`kind="${kind}"`))
          .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
      expect(runs('sync-product'), `${replica.url} ran no sync job`).toBeGreaterThan(0);
      expect(runs('enrichment-push'), `${replica.url} ran no push job`).toBeGreaterThan(0);
    }
  }, 130_000);
});
