import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TestAccount } from '#testing/catalog-sandbox';
import type { ProductStatusDto } from '../../apps/connector/src/operations/admin/product-status.dto.js';
import type { ShopPreviewDto } from '../../apps/connector/src/operations/admin/shop-preview.dto.js';
import { namespaceMatches } from '../../apps/connector/src/write-back/decide/write-back-state.js';
import {
  type ConnectorProcess,
  type ConnectorWorld,
  eventually,
  startConnectorProcess,
  startConnectorWorld,
  type WorldShop,
} from './support/connector-world.js';
import { freePort } from './support/stack-process.js';

const APPROVE = ['seoTitle', 'aiTags', 'material', 'careInstructions'];
type Role = 'edited' | 'deleted' | 'approved' | 'created';

/** A shop of the comparison: its catalog account, its products by role, their Shopify ids in Shopify's order. */
interface Side extends WorldShop {
  account: TestAccount;
  ids: Record<Role, string>;
  shopifyIds: Map<string, string[]>;
}

interface Mutation {
  operationName: string | null;
  variables: Record<string, unknown> | null;
}
interface PlannedRow {
  source: string;
  method: string;
  path: string;
  body: Record<string, unknown> | null;
}
interface ShopifyState {
  productId: string;
  title: string;
  descriptionHtml: string;
  seo: { title: string | null; description: string | null };
  tags: string[];
  metafields: Array<{ namespace: string; key: string; value: string }>;
}

// Issue 31, "Done when", over the stack: the built connector as a real process serving two shops
// (each with a catalog account of its own) through real webhooks and both sandboxes. One scenario
// (a product created with images, one edited, one deleted, one whose enrichment is approved in the
// catalog and written back) with the same inputs in both shops, one in shadow and one live. The
// shadow shop sends no catalog product, variant or upload write and no Shopify product, tag or
// metafield mutation (both sandboxes' request logs); its preview's final planned state of every
// record equals what the live shop's record reached (field by field, ids translated); and each
// product, changed once here, was planned call for call as live sent it. Everything is read over
// HTTP (admin API, sandboxes); the connector's tables only where no route shows them: planned
// writes' bodies, the image map, sku map snapshots and the inbox.
describe('stack, issue 31: a shop in shadow against the same run in live', () => {
  let world: ConnectorWorld;
  let connector: ConnectorProcess;
  let db: pg.Pool;
  let shadow: Side;
  let live: Side;
  const schema = `shadow_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
  const q = `"${schema}"`;

  const admin = async <T>(method: string, path: string, body?: unknown) => {
    const response = await fetch(`${connector.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${world.adminToken}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, text, body: (text ? JSON.parse(text) : {}) as T };
  };
  const graphql = async <T>(side: Side, query: string, variables: Record<string, unknown> = {}) => {
    const answer = await fetch(`${world.shopify.adminUrl}/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': side.accessToken },
      body: JSON.stringify({ query, variables }),
    });
    return ((await answer.json()) as { data: T }).data;
  };
  const merchant = async (side: Side, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${world.shopify.adminUrl}/${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': side.accessToken },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : {}) as { product?: { id: number } };
  };
  const createProduct = async (side: Side, product: Record<string, unknown>) =>
    String((await merchant(side, 'POST', 'products.json', { product })).product?.id);
  const status = async (side: Side, id: string) =>
    (await admin<ProductStatusDto>('GET', `/admin/products/${encodeURIComponent(id)}?shop=${side.domain}`))
      .body;
  const mapRow = async (side: Side, supplierSku: string) =>
    (await status(side, supplierSku)).mapRows?.find((r) => r.supplierSku === supplierSku);
  const snapshot = async (side: Side, supplierSku: string) => {
    const { rows } = await db.query<{ snapshot: Record<string, unknown> }>(
      `SELECT snapshot FROM ${q}.sku_map WHERE shop = $1 AND supplier_sku = $2`,
      [side.domain, supplierSku],
    );
    return rows[0]?.snapshot ?? {};
  };
  const planned = async (side: Side, productId: string) =>
    (
      await db.query<PlannedRow>(
        `SELECT source, method, path, body FROM ${q}.planned_writes WHERE shop = $1 AND product_id = $2
          ORDER BY source, seq`,
        [side.domain, productId],
      )
    ).rows;
  const fileIds = async (side: Side) => {
    const { rows } = await db.query<{ shopify_media_id: string; file_id: string }>(
      `SELECT shopify_media_id, file_id FROM ${q}.media_image_map WHERE shop = $1`,
      [side.domain],
    );
    return new Map(rows.map((r) => [r.shopify_media_id, r.file_id]));
  };
  /** Every webhook sent and each of the product's inbox rows handled. */
  const settled = async (side: Side, productId: string) => {
    await world.shopify.sandbox.idle();
    await eventually(async () => {
      const { rows } = await db.query<{ state: string }>(
        `SELECT state FROM ${q}.inbox WHERE shop = $1 AND product_id = $2`,
        [side.domain, productId],
      );
      return rows.length > 0 && rows.every((row) => row.state === 'done');
    });
  };
  /** Waits for a media run of the product that ended after `after` (epoch ms). */
  const mediaRun = (side: Side, productId: string, after: number) =>
    eventually(async () => {
      const media = (await status(side, productId)).media;
      return media !== null && media !== undefined && Date.parse(media.lastRunAt) > after && media;
    });
  /** The shop's Admin API writes: every mutation but bulk reads and webhook subscriptions. */
  const mutations = async (side: Side) =>
    (
      (await world.shopify.control('GET', `shops/${side.domain}/admin-requests?operationType=mutation`)).body
        .requests as Mutation[]
    ).filter(
      (r) =>
        r.operationName !== 'ConnectorBulkRunQuery' &&
        r.operationName !== 'ConnectorWebhookSubscriptionCreate',
    );
  const subscriptions = async (side: Side) =>
    (
      await graphql<{ webhookSubscriptions: { nodes: unknown[] } }>(
        side,
        '{ webhookSubscriptions(first: 50) { nodes { topic } } }',
      )
    ).webhookSubscriptions.nodes.length;
  /** The product's id, then its variants' and its images' ids, in Shopify's order. */
  const shopifyIds = async (side: Side, productId: string) => {
    type Nodes = { nodes: Array<{ id: string }> };
    const data = await graphql<{ product: { variants: Nodes; media: Nodes } }>(
      side,
      'query($id: ID!) { product(id: $id) { variants(first: 10) { nodes { id } } media(first: 10) { nodes { id } } } }',
      { id: `gid://shopify/Product/${productId}` },
    );
    const tail = (gid: string) => gid.slice(gid.lastIndexOf('/') + 1);
    return [
      productId,
      ...[...data.product.variants.nodes, ...data.product.media.nodes].map((n) => tail(n.id)),
    ];
  };
  /** The product's write-back targets as they stand in Shopify. */
  const shopifyState = async (side: Side, productId: string): Promise<ShopifyState> => {
    const gid = `gid://shopify/Product/${productId}`;
    const data = await graphql<{
      product: Omit<ShopifyState, 'productId' | 'metafields'> & {
        metafields: { nodes: ShopifyState['metafields'] };
      };
    }>(
      side,
      `query($id: ID!) { product(id: $id) { title descriptionHtml seo { title description } tags
        metafields(first: 50) { nodes { namespace key value } } } }`,
      { id: gid },
    );
    return { ...data.product, productId: gid, metafields: data.product.metafields.nodes };
  };
  /** An enrichment run of the record in its account's portal, then its review. */
  const enrichAndApprove = async (account: TestAccount, skuId: string) => {
    const portal = (path: string) => `/portal/v1/accounts/${account.id}${path}`;
    const run = await world.catalog.portal.post(portal('/enrichment/runs'), {
      skuIds: [skuId],
      mode: 'manual',
      batchSize: 1,
    });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    for (const _ of [1, 2])
      await world.catalog.portal.post(portal(`/enrichment/runs/${run.body.data.runId}/step`));
    const review = await world.catalog.portal.post(portal(`/products/${skuId}/review`), { approve: APPROVE });
    expect(review.status, JSON.stringify(review.body)).toBe(200);
  };
  /** `POST /admin/enrichment/poll` (every shop), then waits until it finished and its pushes ran. */
  const poll = async () => {
    const queued = await admin<{ id: string }>('POST', '/admin/enrichment/poll');
    expect(queued.status, queued.text).toBe(200);
    await eventually(async () => {
      const answer = await admin<{ status: string; pushes: { pending: number } }>(
        'GET',
        `/admin/enrichment/poll/${queued.body.id}`,
      );
      return answer.body.status === 'finished' && answer.body.pushes.pending === 0;
    }, 60_000);
  };

  beforeAll(async () => {
    world = await startConnectorWorld({ catalogEnv: { CATALOG_SANDBOX_UPLOAD_PROCESSING_MS: '100' } });
    db = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
    const name = `live${randomBytes(5).toString('hex')}`;
    const second: WorldShop = {
      domain: `${name}.myshopify.com`,
      key: name.toUpperCase(),
      accessToken: `shpat_${randomBytes(12).toString('hex')}`,
    };
    const added = await world.shopify.control('POST', 'shops', second);
    expect(added.status).toBeLessThan(300);
    const side = (shop: WorldShop, account: TestAccount): Side => ({
      ...shop,
      account,
      ids: {} as Side['ids'],
      shopifyIds: new Map(),
    });
    shadow = side(world.shop, world.account);
    live = side(second, await world.catalog.createAccount());
    const port = await freePort();
    const env = world.env({
      CONNECTOR_SHOPS: `${shadow.domain},${live.domain}`,
      [`CONNECTOR_SHOP_${live.key}_ACCESS_TOKEN`]: live.accessToken,
      [`CONNECTOR_SHOP_${live.key}_MAPPING_FILE`]: world.mappingFile,
      [`CONNECTOR_SHOP_${shadow.key}_CATALOG_API_KEY`]: shadow.account.apiKey,
      [`CONNECTOR_SHOP_${live.key}_CATALOG_API_KEY`]: live.account.apiKey,
      CONNECTOR_PUBLIC_URL: `http://127.0.0.1:${port}`,
      CONNECTOR_MEDIA_ALLOWED_HOSTS: world.shopify.url,
      CONNECTOR_MEDIA_DELAY_MS: '0',
      CONNECTOR_MEDIA_FIRST_POLL_MS: '100',
      CONNECTOR_MEDIA_POLL_MS: '100',
      CONNECTOR_ENRICHMENT_POLL_INTERVAL_MS: '3600000',
      CONNECTOR_ENRICHMENT_WATCHLIST_INTERVAL_MS: '0',
      CONNECTOR_ENRICHMENT_PUSH_BACKOFF_MS: '50',
      CONNECTOR_ENRICHMENT_LOCK_RETRY_MS: '50',
    });
    connector = await startConnectorProcess(env, schema, port);
    for (const s of [shadow, live]) await eventually(async () => (await subscriptions(s)) === 4);
  }, 120_000);
  afterAll(async () => {
    await connector?.stop();
    await db?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await db?.query(`DROP SCHEMA IF EXISTS "${schema}_q" CASCADE`).catch(() => undefined);
    await db?.end();
    await world?.close();
  });

  /** Before the switch, in both shops: a product to edit (two sizes, an image), one to delete, one to enrich. */
  const prepare = async (side: Side, started: number) => {
    side.ids.edited = await createProduct(side, {
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
    side.ids.deleted = await createProduct(side, {
      title: 'Felt coaster',
      vendor: 'Acme',
      product_type: 'Cookware',
    });
    side.ids.approved = await createProduct(side, {
      title: 'Wool sweater',
      vendor: 'Acme',
      product_type: 'Sweaters',
      tags: 'wool',
      variants: [{ price: '80.00', barcode: '4006381333955' }],
    });
    for (const id of [side.ids.edited, side.ids.deleted, side.ids.approved]) await settled(side, id);
    await eventually(
      async () =>
        (await status(side, side.ids.edited)).mapRows?.filter((r) => r.state === 'live').length === 3,
    );
    await mediaRun(side, side.ids.edited, started);
  };

  /** The run, the same in both shops: a create with two images, an edit, a delete, an approval. */
  const play = async (side: Side) => {
    side.ids.created = await createProduct(side, {
      title: 'Stoneware mug',
      vendor: 'Acme',
      product_type: 'Cookware',
      variants: [{ price: '12.00', barcode: '4006381333962' }],
      images: ['front', 'back'].map((n) => ({ src: `https://example.com/${n}.jpg`, alt: n })),
    });
    await merchant(side, 'PUT', `products/${side.ids.edited}.json`, {
      product: {
        id: Number(side.ids.edited),
        title: 'Linen shirt, washed',
        body_html: '<p>Washed linen.</p>',
      },
    });
    await merchant(side, 'DELETE', `products/${side.ids.deleted}.json`);
    const [record] = (await status(side, side.ids.approved)).mapRows;
    await enrichAndApprove(side.account, record?.skuId as string);
  };

  /**
   * Shadow's ids in live's terms: the shop's name in supplierSkus, products, variants and images
   * by position, records by supplierSku, image files by image, and a planned create's `{skuId}`.
   */
  const translation = async () => {
    const swaps = new Map<string, string>();
    const name = (side: Side) => side.domain.replace('.myshopify.com', '');
    swaps.set(`${name(shadow)}:`, `${name(live)}:`);
    for (const role of Object.keys(shadow.ids) as Role[]) {
      const from = shadow.shopifyIds.get(shadow.ids[role]) ?? [];
      const to = live.shopifyIds.get(live.ids[role]) ?? [];
      expect(to.length, role).toBe(from.length);
      for (const [i, id] of from.entries()) swaps.set(id, to[i] as string);
    }
    const translate = <T>(value: T): T => {
      let text = JSON.stringify(value);
      for (const [from, to] of swaps)
        text = text.replace(new RegExp(`(?<![0-9])${escapeRegExp(from)}(?![0-9])`, 'g'), to);
      return JSON.parse(text) as T;
    };
    for (const role of ['edited', 'deleted', 'approved'] as const) {
      for (const row of (await status(shadow, shadow.ids[role])).mapRows) {
        const twin = await mapRow(live, translate(row.supplierSku));
        if (row.skuId && twin?.skuId) swaps.set(row.skuId, twin.skuId);
      }
    }
    swaps.set('{skuId}', (await status(live, live.ids.created)).mapRows[0]?.skuId as string);
    const liveFiles = await fileIds(live);
    for (const [media, file] of await fileIds(shadow))
      swaps.set(file, liveFiles.get(translate(media)) as string);
    const upload = (entry: string) => {
      const gid = /^upload:(gid:\/\/shopify\/MediaImage\/\d+)$/.exec(entry)?.[1];
      return gid === undefined ? entry : (liveFiles.get(gid) as string);
    };
    return { translate, upload };
  };

  const attributesOf = async (side: Side, kind: string, skuId: string | null | undefined) => {
    const answer = await side.account.api.get(`/v1/${kind}/${skuId}`).expect(200);
    return answer.body.data.attributes as Array<{ key: string; value: unknown }>;
  };

  it('sends nothing in shadow, and previews exactly the state and the calls live reaches', async () => {
    const started = Date.now();
    await Promise.all([prepare(shadow, started), prepare(live, started)]);

    // The shadow shop goes into shadow; from here on both get the same inputs.
    expect((await admin('PUT', `/admin/shops/${shadow.domain}/mode`, { mode: 'shadow' })).status).toBe(200);
    const mutationsBefore = new Map<Side, number>();
    for (const side of [shadow, live]) {
      mutationsBefore.set(side, (await mutations(side)).length);
      await side.account.controls.clearRequests();
    }
    const switched = Date.now();
    await Promise.all([play(shadow), play(live)]);
    for (const side of [shadow, live])
      for (const id of [side.ids.created, side.ids.edited, side.ids.deleted]) await settled(side, id);
    await poll();
    // Live: the new product's images are in; shadow: its media plan is there.
    await mediaRun(live, live.ids.created, switched);
    await eventually(async () =>
      (await planned(shadow, shadow.ids.created)).some((r) => r.source === 'media'),
    );
    for (const side of [shadow, live]) {
      for (const id of Object.values(side.ids))
        side.shopifyIds.set(id, id === side.ids.deleted ? [id] : await shopifyIds(side, id));
    }

    // Zero writes left the connector for the shadow shop, in either sandbox.
    const shadowCatalog = (await shadow.account.controls.requests()).filter(
      (r) => r.method !== 'GET' && r.path.startsWith('/v1/') && !r.path.endsWith('/search'),
    );
    expect(shadowCatalog).toEqual([]);
    expect((await mutations(shadow)).slice(mutationsBefore.get(shadow))).toEqual([]);
    const liveMutations = (await mutations(live)).slice(mutationsBefore.get(live));
    expect(liveMutations.length).toBeGreaterThanOrEqual(3);

    const { translate, upload } = await translation();

    // For every record, the preview's final planned state is the state live reached.
    const preview = await admin<ShopPreviewDto>('GET', `/admin/shops/${shadow.domain}/preview`);
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body.mode).toBe('shadow');
    expect(preview.body.products.map((p) => p.productId).sort()).toEqual(Object.values(shadow.ids).sort());
    let compared = 0;
    for (const product of preview.body.products) {
      for (const record of product.records) {
        if (record.source === 'shopify') {
          const state = await shopifyState(live, translate(product.productId));
          for (const [target, value] of Object.entries(translate(record.finalState ?? {}))) {
            const expected = target === 'tags' ? [...(value as string[])].sort() : value;
            expect(targetValue(state, target), target).toEqual(expected);
            compared += 1;
          }
          continue;
        }
        const kindOf = (sku: string) => (sku.includes(':variant:') ? 'variants' : 'products');
        if (record.kind === 'upload') {
          // An image upload: live uploaded that image, and the record it names holds its file.
          const entry = translate(record.finalState ?? {});
          const file = upload(String(entry.fileId));
          expect(file, String(entry.shopifyMediaId)).toMatch(/\S/);
          expect(entry.sourceUrl).toBe(record.image?.sourceUrl);
          const owner = await mapRow(live, translate(record.supplierSku));
          const attributes = await attributesOf(live, kindOf(record.supplierSku), owner?.skuId);
          expect(attributes.find((a) => a.key === 'media')?.value).toContain(file);
          compared += 1;
          continue;
        }
        const twin = await mapRow(live, translate(record.supplierSku));
        expect(twin, record.supplierSku).toBeDefined();
        if (record.finalState === null) {
          expect(twin?.state).toBe('tombstoned');
          expect((await live.account.api.get(`/v1/products/${twin?.skuId}`)).status).toBe(404);
          compared += 1;
          continue;
        }
        const attributes = await attributesOf(live, kindOf(record.supplierSku), twin?.skuId);
        const kept = await snapshot(live, translate(record.supplierSku));
        for (const [key, value] of Object.entries(translate(record.finalState))) {
          const expected = key === 'media' ? (value as string[]).map(upload) : value;
          const reached = attributes.find((a) => a.key === key)?.value ?? null;
          expect(reached, `${record.supplierSku} ${key}`).toEqual(expected);
          if (key !== 'media') expect(kept[key], `${record.supplierSku} ${key}`).toEqual(value);
          compared += 1;
        }
      }
    }
    expect(compared).toBeGreaterThan(10);

    // Each product was changed once: its plan is live's calls, call for call (the catalog's by
    // method and path; Shopify's by mutation name and variables, per product). The preview's
    // calls are the planned writes' method and path.
    const plans = new Map<Role, PlannedRow[]>();
    for (const role of Object.keys(shadow.ids) as Role[])
      plans.set(role, translate(await planned(shadow, shadow.ids[role])));
    const previewCalls = preview.body.products.flatMap((p) => p.records.flatMap((r) => r.calls));
    const catalogPlan = [...plans.values()]
      .flat()
      .filter((r) => r.method !== 'MUTATION')
      .map((r) => `${r.method} ${r.path}`);
    expect(previewCalls.filter((c) => !c.startsWith('MUTATION ')).length).toBeGreaterThanOrEqual(
      catalogPlan.length,
    );
    const catalogSent = (await live.account.controls.requests())
      .filter((r) => r.method !== 'GET' && !r.path.endsWith('/search'))
      .map((r) => `${r.method} ${r.path}`);
    expect(catalogPlan.sort()).toEqual(catalogSent.sort());
    expect(catalogPlan.length).toBeGreaterThanOrEqual(6);
    for (const [role, plan] of plans) {
      const ids = live.shopifyIds.get(live.ids[role]) ?? [];
      const sent = liveMutations
        .filter((r) => ids.some((id) => JSON.stringify(r.variables).includes(`/${id}"`)))
        .map((r) => `${r.operationName} ${canonical(r.variables)}`);
      const mine = plan.filter((r) => r.method === 'MUTATION').map((r) => `${r.path} ${canonical(r.body)}`);
      expect(mine.sort(), role).toEqual(sent.sort());
    }
    expect(plans.get('approved')?.filter((r) => r.method === 'MUTATION').length).toBeGreaterThanOrEqual(3);
  }, 90_000);
});

/** A write-back target's value in Shopify, named as the preview names it. */
function targetValue(state: ShopifyState, target: string): unknown {
  if (target === 'seo.title') return state.seo.title;
  if (target === 'seo.description') return state.seo.description;
  if (target === 'tags') return [...state.tags].sort();
  const metafield = /^metafield:(.+)\.([^.]+)$/.exec(target);
  if (metafield) {
    const [, namespace, key] = metafield as unknown as [string, string, string];
    return (
      state.metafields.find((m) => m.key === key && namespaceMatches(namespace, m.namespace))?.value ?? null
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
