import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogSandboxHarness, startCatalogSandbox, type TestAccount } from '#testing/catalog-sandbox';
import { type ShopifySandboxHarness, sandboxFetch, startShopifySandbox } from '#testing/shopify-sandbox';
import { ShopMappings } from '../src/index.js';
import type { ShopPreviewDto } from '../src/operations/admin/shop-preview.dto.js';
import type { ShopifyProductState } from '../src/write-back/decide/write-back-state.js';
import { namespaceMatches } from '../src/write-back/decide/write-back-state.js';
import type { GraphqlResponse } from '../src/write-back/shopify/admin-graphql.js';
import { fetchWriteBackState } from '../src/write-back/shopify/fetch-write-back-state.js';
import { call } from './support/admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { type TestShop, testShop } from './support/test-shop.js';

const DEMO_MAPPING = fileURLToPath(new URL('../mappings/demo.yaml', import.meta.url));
const TOKEN = `compare-${randomBytes(8).toString('hex')}`;
const APPROVE = ['seoTitle', 'aiTags', 'material', 'careInstructions'];

interface Side {
  name: 'shadow' | 'live';
  shop: TestShop;
  account: TestAccount;
  /** The scenario's products in this shop, by role. */
  ids: Record<'edited' | 'deleted' | 'approved' | 'created', string>;
  /** Each product's Shopify product, variant and media ids, in Shopify's order. */
  shopifyIds: Map<string, string[]>;
}

interface LoggedMutation {
  operationName: string | null;
  variables: Record<string, unknown> | null;
}

// Issue 31, "Done when": one scenario (a product created with images, one edited, one deleted,
// one whose enrichment is approved in the catalog) played on two shops with the same inputs, one
// in shadow and one live, each into its own catalog account, through real webhooks and both
// sandboxes. The shadow shop sends no catalog product, variant or upload write and no Shopify
// product, tag or metafield mutation; its preview's final planned state of every record equals
// what the live shop's record reached (field by field, ids translated); and each product, changed
// once here, was planned call for call as live sent it.
describe('issue 31: a shop in shadow against the same run in live', () => {
  let catalog: CatalogSandboxHarness;
  let shopify: ShopifySandboxHarness;
  let harness: ConnectorHarness;
  let dir: string;
  const sides = {} as Record<'shadow' | 'live', Side>;

  beforeAll(async () => {
    [catalog, shopify] = await Promise.all([
      startCatalogSandbox({ env: { CATALOG_SANDBOX_UPLOAD_PROCESSING_MS: '100' } }),
      startShopifySandbox(),
    ]);
    dir = await mkdtemp(join(tmpdir(), 'connector-compare-'));
    const mappingFile = join(dir, 'mapping.yaml');
    await writeFile(mappingFile, (await readFile(DEMO_MAPPING, 'utf8')).replace(/^shop: .*$/m, ''));
    for (const name of ['shadow', 'live'] as const) {
      const shop = testShop({ webhookSecrets: [shopify.appSecret] });
      const added = await shopify.control('POST', 'shops', {
        domain: shop.domain,
        accessToken: shop.accessToken,
      });
      expect(added.status).toBeLessThan(300);
      const account = await catalog.createAccount();
      sides[name] = { name, shop, account, ids: {} as Side['ids'], shopifyIds: new Map() };
    }
    const both = [sides.shadow, sides.live];
    harness = await startConnector({
      shops: both.map((s) => s.shop),
      catalogUrl: catalog.url,
      catalogApiKey: sides.shadow.account.apiKey,
      shopifyFetch: sandboxFetch(shopify.url),
      publicUrl: true,
      env: {
        ...Object.fromEntries(
          both.flatMap((s) => [
            [`CONNECTOR_SHOP_${s.shop.key}_CATALOG_API_KEY`, s.account.apiKey],
            [`CONNECTOR_SHOP_${s.shop.key}_MAPPING_FILE`, mappingFile],
          ]),
        ),
        CONNECTOR_ADMIN_TOKEN: TOKEN,
        CONNECTOR_MEDIA_ALLOWED_HOSTS: shopify.url,
        CONNECTOR_MEDIA_DELAY_MS: '0',
        CONNECTOR_MEDIA_FIRST_POLL_MS: '100',
        CONNECTOR_MEDIA_POLL_MS: '100',
        CONNECTOR_ENRICHMENT_POLL_INTERVAL_MS: '3600000',
        CONNECTOR_ENRICHMENT_WATCHLIST_INTERVAL_MS: '0',
        CONNECTOR_ENRICHMENT_PUSH_BACKOFF_MS: '50',
        CONNECTOR_ENRICHMENT_LOCK_RETRY_MS: '50',
        CONNECTOR_CATALOG_RATE_PER_SECOND: '50',
      },
    });
    for (const side of both) {
      await eventually(
        async () => harness.connector.app.get(ShopMappings).state(side.shop.domain).status === 'ready',
      );
      await eventually(async () => (await subscriptions(side.shop)).length === 4, 30_000);
    }
  });
  afterAll(async () => {
    await harness?.close();
    await Promise.allSettled([catalog?.close(), shopify?.close()]);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const graphql = async (shop: TestShop, query: string, variables: Record<string, unknown> = {}) => {
    const answer = await fetch(`${shopify.adminUrl}/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': shop.accessToken },
      body: JSON.stringify({ query, variables }),
    });
    return (await answer.json()) as GraphqlResponse;
  };
  const subscriptions = async (shop: TestShop) =>
    (
      (await graphql(shop, '{ webhookSubscriptions(first: 50) { nodes { topic } } }')).data as {
        webhookSubscriptions: { nodes: unknown[] };
      }
    ).webhookSubscriptions.nodes;
  const merchant = async (shop: TestShop, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${shopify.adminUrl}/${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': shop.accessToken },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status, `${method} ${path}`).toBeLessThan(300);
    const text = await response.text();
    return (text ? JSON.parse(text) : {}) as { product?: { id: number } };
  };
  const q = () => `"${harness.schema}"`;
  const mapRows = async (side: Side, productId: string) =>
    (
      await harness.db.query<{
        supplier_sku: string;
        sku_id: string | null;
        state: string;
        snapshot: Record<string, unknown>;
      }>(
        `SELECT supplier_sku, sku_id, state, snapshot FROM ${q()}.sku_map WHERE shop = $1 AND shopify_product_id = $2
          ORDER BY supplier_sku`,
        [side.shop.domain, productId],
      )
    ).rows;
  const settled = async (side: Side, productId: string) => {
    await shopify.sandbox.idle();
    await eventually(async () => {
      const rows = await harness.inbox(side.shop.domain, productId);
      return rows.length > 0 && rows.every((row) => row.state === 'done');
    }, 30_000);
  };
  const mediaRun = async (side: Side, productId: string, after: number) =>
    eventually(async () => {
      const { rows } = await harness.db.query<{ last_run_at: Date; uploads: number; writes: number }>(
        `SELECT last_run_at, uploads, writes FROM ${q()}.media_product_status WHERE shop = $1 AND shopify_product_id = $2`,
        [side.shop.domain, productId],
      );
      return rows[0] !== undefined && rows[0].last_run_at.getTime() > after && rows[0];
    }, 30_000);
  const planned = async (side: Side, productId: string) =>
    (
      await harness.db.query<{
        source: string;
        method: string;
        path: string;
        body: Record<string, unknown> | null;
      }>(
        `SELECT source, method, path, body FROM ${q()}.planned_writes WHERE shop = $1 AND product_id = $2
          ORDER BY source, seq`,
        [side.shop.domain, productId],
      )
    ).rows;
  const mutations = async (side: Side): Promise<LoggedMutation[]> => {
    const answer = await shopify.control(
      'GET',
      `shops/${side.shop.domain}/admin-requests?operationType=mutation`,
    );
    // A bulk query is a read; webhook subscriptions are the one write shadow makes too.
    return (answer.body.requests as LoggedMutation[]).filter(
      (r) =>
        r.operationName !== 'ConnectorBulkRunQuery' &&
        r.operationName !== 'ConnectorWebhookSubscriptionCreate',
    );
  };
  const portal = (side: Side, path: string) => `/portal/v1/accounts/${side.account.id}${path}`;
  const poll = async () => {
    const queued = await call<{ id: string }>(harness.url, 'POST', '/admin/enrichment/poll', TOKEN);
    expect(queued.status).toBe(200);
    await eventually(async () => {
      const status = await call<{ status: string; pushes: { pending: number } }>(
        harness.url,
        'GET',
        `/admin/enrichment/poll/${queued.body.id}`,
        TOKEN,
      );
      return status.body.status === 'finished' && status.body.pushes.pending === 0;
    }, 60_000);
  };
  const shopifyIdsOf = async (side: Side, productId: string) => {
    const data = (
      await graphql(
        side.shop,
        `query($id: ID!) { product(id: $id) { variants(first: 10) { nodes { id } } media(first: 10) { nodes { id } } } }`,
        { id: `gid://shopify/Product/${productId}` },
      )
    ).data as {
      product: { variants: { nodes: Array<{ id: string }> }; media: { nodes: Array<{ id: string }> } };
    };
    const tail = (gid: string) => gid.slice(gid.lastIndexOf('/') + 1);
    return [
      productId,
      ...data.product.variants.nodes.map((n) => tail(n.id)),
      ...data.product.media.nodes.map((n) => tail(n.id)),
    ];
  };
  const shopifyState = async (side: Side, productId: string): Promise<ShopifyProductState> => {
    const targets = harness.connector.app.get(ShopMappings).mapping(side.shop.domain)?.writeBack ?? [];
    const state = await fetchWriteBackState(
      (query, variables) => graphql(side.shop, query, variables),
      `gid://shopify/Product/${productId}`,
      targets,
      { sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)), throttleRetries: 20 },
    );
    if (!state) throw new Error(`no product ${productId}`);
    return state;
  };

  it('sends nothing in shadow, and previews exactly the state and the calls live reaches', async () => {
    // Before: both shops live, each with a product to edit (two sizes and an image), one to
    // delete and one to be enriched, synced into their own accounts.
    const started = Date.now();
    for (const side of [sides.shadow, sides.live]) {
      const create = async (product: Record<string, unknown>) =>
        String((await merchant(side.shop, 'POST', 'products.json', { product })).product?.id);
      side.ids.edited = await create({
        title: 'Linen shirt',
        vendor: 'Acme',
        product_type: 'Shirts',
        body_html: '<p>Soft linen.</p>',
        options: [{ name: 'Size' }],
        variants: [
          { option1: 'Small', price: '35.00', barcode: '4006381333931' },
          { option1: 'Medium', price: '36.00', barcode: '4006381333948' },
        ],
        images: [{ src: 'https://example.com/shirt.jpg', alt: 'shirt' }],
      });
      side.ids.deleted = await create({ title: 'Felt coaster', vendor: 'Acme', product_type: 'Cookware' });
      side.ids.approved = await create({
        title: 'Wool sweater',
        vendor: 'Acme',
        product_type: 'Sweaters',
        tags: 'wool',
        variants: [{ price: '80.00', barcode: '4006381333955' }],
      });
      for (const id of [side.ids.edited, side.ids.deleted, side.ids.approved]) await settled(side, id);
      await eventually(
        async () => (await mapRows(side, side.ids.edited)).filter((r) => r.state === 'live').length === 3,
      );
      await mediaRun(side, side.ids.edited, started);
    }

    // The shadow shop goes into shadow; from here on both get the same inputs.
    expect(
      (
        await call(harness.url, 'PUT', `/admin/shops/${sides.shadow.shop.domain}/mode`, TOKEN, {
          mode: 'shadow',
        })
      ).status,
    ).toBe(200);
    const mutationsBefore = {
      shadow: (await mutations(sides.shadow)).length,
      live: (await mutations(sides.live)).length,
    };
    for (const side of [sides.shadow, sides.live]) await side.account.controls.clearRequests();
    const switched = Date.now();

    for (const side of [sides.shadow, sides.live]) {
      side.ids.created = String(
        (
          await merchant(side.shop, 'POST', 'products.json', {
            product: {
              title: 'Stoneware mug',
              vendor: 'Acme',
              product_type: 'Cookware',
              variants: [{ price: '12.00', barcode: '4006381333962' }],
              images: ['front', 'back'].map((n) => ({ src: `https://example.com/${n}.jpg`, alt: n })),
            },
          })
        ).product?.id,
      );
      await merchant(side.shop, 'PUT', `products/${side.ids.edited}.json`, {
        product: {
          id: Number(side.ids.edited),
          title: 'Linen shirt, washed',
          body_html: '<p>Washed linen.</p>',
        },
      });
      await merchant(side.shop, 'DELETE', `products/${side.ids.deleted}.json`);
      const [record] = await mapRows(side, side.ids.approved);
      const skuId = record?.sku_id as string;
      const run = await catalog.portal.post(portal(side, '/enrichment/runs'), {
        skuIds: [skuId],
        mode: 'manual',
        batchSize: 1,
      });
      expect(run.status).toBe(200);
      for (const _ of [1, 2])
        await catalog.portal.post(portal(side, `/enrichment/runs/${run.body.data.runId}/step`));
      expect(
        (await catalog.portal.post(portal(side, `/products/${skuId}/review`), { approve: APPROVE })).status,
      ).toBe(200);
    }
    for (const side of [sides.shadow, sides.live]) {
      for (const id of [side.ids.created, side.ids.edited, side.ids.deleted]) await settled(side, id);
    }
    await poll();
    // Live: the new product's images are in; shadow: its media plan is there.
    await mediaRun(sides.live, sides.live.ids.created, switched);
    await eventually(
      async () => (await planned(sides.shadow, sides.shadow.ids.created)).some((r) => r.source === 'media'),
      30_000,
    );
    for (const side of [sides.shadow, sides.live]) {
      for (const id of Object.values(side.ids))
        if (id !== side.ids.deleted) side.shopifyIds.set(id, await shopifyIdsOf(side, id));
      side.shopifyIds.set(side.ids.deleted, [side.ids.deleted]);
    }

    // Zero writes left the connector for the shadow shop, in either sandbox.
    const catalogWrites = (await sides.shadow.account.controls.requests()).filter(
      (r) => r.method !== 'GET' && r.path.startsWith('/v1/') && !r.path.endsWith('/search'),
    );
    expect(catalogWrites).toEqual([]);
    expect((await mutations(sides.shadow)).slice(mutationsBefore.shadow)).toEqual([]);
    expect((await mutations(sides.live)).length).toBeGreaterThan(mutationsBefore.live);

    // Shadow ids to live ids: products, variants and images by position, records by supplierSku.
    const swaps = new Map<string, string>();
    const name = (side: Side) => side.shop.domain.replace('.myshopify.com', '');
    swaps.set(`${name(sides.shadow)}:`, `${name(sides.live)}:`);
    for (const role of Object.keys(sides.shadow.ids) as Array<keyof Side['ids']>) {
      const from = sides.shadow.shopifyIds.get(sides.shadow.ids[role]) ?? [];
      const to = sides.live.shopifyIds.get(sides.live.ids[role]) ?? [];
      expect(to.length, role).toBe(from.length);
      for (const [i, id] of from.entries()) swaps.set(id, to[i] as string);
    }
    const translate = <T>(value: T): T => {
      let text = JSON.stringify(value);
      for (const [from, to] of swaps)
        text = text.replace(new RegExp(`(?<![0-9])${escapeRegExp(from)}(?![0-9])`, 'g'), to);
      return JSON.parse(text) as T;
    };
    const liveRow = async (supplierSku: string) => {
      const { rows } = await harness.db.query<{
        sku_id: string;
        state: string;
        snapshot: Record<string, unknown>;
      }>(`SELECT sku_id, state, snapshot FROM ${q()}.sku_map WHERE shop = $1 AND supplier_sku = $2`, [
        sides.live.shop.domain,
        supplierSku,
      ]);
      return rows[0];
    };
    for (const role of ['edited', 'deleted', 'approved'] as const) {
      for (const row of await mapRows(sides.shadow, sides.shadow.ids[role])) {
        const live = await liveRow(translate(row.supplier_sku));
        if (row.sku_id && live?.sku_id) swaps.set(row.sku_id, live.sku_id);
      }
    }
    const createdSku = (await mapRows(sides.live, sides.live.ids.created))[0]?.sku_id as string;
    swaps.set('{skuId}', createdSku);
    const fileIds = async (side: Side) =>
      new Map(
        (
          await harness.db.query<{ shopify_media_id: string; file_id: string }>(
            `SELECT shopify_media_id, file_id FROM ${q()}.media_image_map WHERE shop = $1`,
            [side.shop.domain],
          )
        ).rows.map((r) => [r.shopify_media_id, r.file_id]),
      );
    const liveFiles = await fileIds(sides.live);
    for (const [media, file] of await fileIds(sides.shadow))
      swaps.set(file, liveFiles.get(translate(media)) as string);
    const media = (entry: string) => {
      const gid = /^upload:(gid:\/\/shopify\/MediaImage\/\d+)$/.exec(entry)?.[1];
      return gid === undefined ? entry : (liveFiles.get(gid) as string);
    };

    // For every record, the preview's final planned state is the state live reached.
    const preview = await call<ShopPreviewDto>(
      harness.url,
      'GET',
      `/admin/shops/${sides.shadow.shop.domain}/preview`,
      TOKEN,
    );
    expect(preview.status, preview.text).toBe(200);
    const products = preview.body.products;
    expect(products.map((p) => p.productId).sort()).toEqual(Object.values(sides.shadow.ids).sort());
    let compared = 0;
    for (const product of products) {
      const liveProductId = translate(product.productId);
      for (const record of product.records) {
        if (record.source === 'shopify') {
          const state = await shopifyState(sides.live, liveProductId);
          for (const [target, value] of Object.entries(translate(record.finalState ?? {}))) {
            expect(targetValue(state, target), target).toEqual(
              target === 'tags' ? [...(value as string[])].sort() : value,
            );
            compared += 1;
          }
          continue;
        }
        // The image uploads (no record of their own): their files are in the gallery compared below.
        if (record.supplierSku === '') continue;
        const live = await liveRow(translate(record.supplierSku));
        expect(live, record.supplierSku).toBeDefined();
        if (record.finalState === null) {
          expect(live?.state).toBe('tombstoned');
          expect((await sides.live.account.api.get(`/v1/products/${live?.sku_id}`)).status).toBe(404);
          compared += 1;
          continue;
        }
        const kind = record.supplierSku.includes(':variant:') ? 'variants' : 'products';
        const attributes = (await sides.live.account.api.get(`/v1/${kind}/${live?.sku_id}`).expect(200)).body
          .data.attributes as Array<{ key: string; value: unknown }>;
        const final = translate(record.finalState);
        for (const [key, value] of Object.entries(final)) {
          const expected = key === 'media' ? (value as string[]).map(media) : value;
          expect(
            attributes.find((a) => a.key === key)?.value ?? null,
            `${record.supplierSku} ${key}`,
          ).toEqual(expected);
          if (key !== 'media') expect(live?.snapshot[key], `${record.supplierSku} ${key}`).toEqual(value);
          compared += 1;
        }
      }
    }
    expect(compared).toBeGreaterThan(10);

    // Each product was changed once: its plan is live's calls, call for call (the catalog's by
    // method and path, each naming its record or made for the one new product; Shopify's with
    // their variables, per product).
    const plans = new Map<string, Awaited<ReturnType<typeof planned>>>();
    for (const role of Object.keys(sides.shadow.ids) as Array<keyof Side['ids']>) {
      plans.set(role, translate(await planned(sides.shadow, sides.shadow.ids[role])));
    }
    const catalogPlan = [...plans.values()]
      .flat()
      .filter((r) => r.method !== 'MUTATION')
      .map((r) => `${r.method} ${r.path}`);
    const catalogSent = (await sides.live.account.controls.requests())
      .filter((r) => r.method !== 'GET' && !r.path.endsWith('/search'))
      .map((r) => `${r.method} ${r.path}`);
    expect(catalogPlan.sort()).toEqual(catalogSent.sort());
    expect(catalogPlan.length).toBeGreaterThanOrEqual(6);
    const liveMutations = (await mutations(sides.live)).slice(mutationsBefore.live);
    for (const [role, plan] of plans) {
      const ids = sides.live.shopifyIds.get(sides.live.ids[role as keyof Side['ids']]) ?? [];
      const sent = liveMutations
        .filter((r) => ids.some((id) => JSON.stringify(r.variables).includes(`/${id}"`)))
        .map((r) => `${r.operationName} ${canonical(r.variables)}`);
      const mine = plan.filter((r) => r.method === 'MUTATION').map((r) => `${r.path} ${canonical(r.body)}`);
      expect(mine.sort(), role).toEqual(sent.sort());
    }
    expect(plans.get('approved')?.filter((r) => r.method === 'MUTATION').length).toBeGreaterThanOrEqual(3);
  });
});

/** A write-back target's value in Shopify, named as the preview names it. */
function targetValue(state: ShopifyProductState, target: string): unknown {
  if (target === 'seo.title') return state.seo.title;
  if (target === 'seo.description') return state.seo.description;
  if (target === 'tags') return [...state.tags].sort();
  const metafield = /^metafield:(.+)\.([^.]+)$/.exec(target);
  if (metafield) {
    const [, namespace, key] = metafield as unknown as [string, string, string];
    return (
      state.metafields.find(
        (m) => m.ownerId === state.productId && m.key === key && namespaceMatches(namespace, m.namespace),
      )?.value ?? null
    );
  }
  return (state as unknown as Record<string, unknown>)[target];
}

/** JSON with every object's keys sorted (a jsonb column keeps its own key order). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
