import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShopPreviewDto } from '../../apps/connector/src/operations/admin/shop-preview.dto.js';
import { namespaceMatches } from '../../apps/connector/src/write-back/decide/write-back-state.js';
import { eventually } from './support/connector-world.js';
import {
  type PlannedRow,
  type ShopifyTargets,
  type StackShop,
  TwoShopStack,
} from './support/two-shop-stack.js';

const APPROVE = ['seoTitle', 'aiTags', 'material', 'careInstructions'];
type Role = 'edited' | 'deleted' | 'approved' | 'created';

/** A shop of the comparison: its products by role, and each one's Shopify ids in Shopify's order. */
interface Side extends StackShop {
  ids: Record<Role, string>;
  shopifyIds: Map<string, string[]>;
}

// Issue 31, "Done when", over the stack: the built connector as a real process serving two shops
// (each with a catalog account of its own) through real webhooks and both sandboxes. One scenario
// (a product created with images, one edited, one deleted, one whose enrichment is approved in the
// catalog and written back) with the same inputs in both shops, one in shadow and one live. The
// shadow shop sends no catalog product, variant or upload write and no Shopify product, tag or
// metafield mutation (both sandboxes' request logs); its preview's final planned state of every
// record equals what the live shop's record reached (field by field, ids translated); and each
// product, changed once here, was planned call for call as live sent it. Read over HTTP (admin
// API, sandboxes); the connector's tables only where no route shows it (`TwoShopStack`).
describe('stack, issue 31: a shop in shadow against the same run in live', () => {
  let stack: TwoShopStack;
  let shadow: Side;
  let live: Side;

  beforeAll(async () => {
    stack = await TwoShopStack.start();
    const side = (shop: StackShop): Side => ({ ...shop, ids: {} as Side['ids'], shopifyIds: new Map() });
    [shadow, live] = stack.shops.map(side) as [Side, Side];
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  /** Before the switch, in both shops: a product to edit (two sizes, an image), one to delete, one to enrich. */
  const prepare = async (side: Side, started: number) => {
    side.ids.edited = await stack.createProduct(side, {
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
    side.ids.deleted = await stack.createProduct(side, {
      title: 'Felt coaster',
      vendor: 'Acme',
      product_type: 'Cookware',
    });
    side.ids.approved = await stack.createProduct(side, {
      title: 'Wool sweater',
      vendor: 'Acme',
      product_type: 'Sweaters',
      tags: 'wool',
      variants: [{ price: '80.00', barcode: '4006381333955' }],
    });
    for (const id of [side.ids.edited, side.ids.deleted, side.ids.approved]) await stack.settled(side, id);
    await eventually(
      async () =>
        (await stack.status(side, side.ids.edited)).mapRows?.filter((r) => r.state === 'live').length === 3,
    );
    await stack.mediaRun(side, side.ids.edited, started);
  };

  /** The run, the same in both shops: a create with two images, an edit, a delete, an approval. */
  const play = async (side: Side) => {
    side.ids.created = await stack.createProduct(side, {
      title: 'Stoneware mug',
      vendor: 'Acme',
      product_type: 'Cookware',
      variants: [{ price: '12.00', barcode: '4006381333962' }],
      images: ['front', 'back'].map((n) => ({ src: `https://example.com/${n}.jpg`, alt: n })),
    });
    await stack.merchant(side, 'PUT', `products/${side.ids.edited}.json`, {
      product: {
        id: Number(side.ids.edited),
        title: 'Linen shirt, washed',
        body_html: '<p>Washed linen.</p>',
      },
    });
    await stack.merchant(side, 'DELETE', `products/${side.ids.deleted}.json`);
    const [record] = (await stack.status(side, side.ids.approved)).mapRows;
    await stack.enrichAndApprove(side.account, record?.skuId as string, APPROVE);
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
      for (const row of (await stack.status(shadow, shadow.ids[role])).mapRows) {
        const twin = await stack.mapRow(live, translate(row.supplierSku));
        if (row.skuId && twin?.skuId) swaps.set(row.skuId, twin.skuId);
      }
    }
    swaps.set('{skuId}', (await stack.status(live, live.ids.created)).mapRows[0]?.skuId as string);
    const liveFiles = await stack.fileIds(live);
    for (const [media, file] of await stack.fileIds(shadow))
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
    expect((await stack.admin('PUT', `/admin/shops/${shadow.domain}/mode`, { mode: 'shadow' })).status).toBe(
      200,
    );
    const mutationsBefore = new Map<Side, number>();
    for (const side of [shadow, live]) {
      mutationsBefore.set(side, (await stack.mutations(side)).length);
      await side.account.controls.clearRequests();
    }
    const switched = Date.now();
    await Promise.all([play(shadow), play(live)]);
    for (const side of [shadow, live])
      for (const id of [side.ids.created, side.ids.edited, side.ids.deleted]) await stack.settled(side, id);
    await stack.poll();
    // Live: the new product's images are in; shadow: its media plan is there.
    await stack.mediaRun(live, live.ids.created, switched);
    await eventually(async () =>
      (await stack.planned(shadow, shadow.ids.created)).some((r) => r.source === 'media'),
    );
    for (const side of [shadow, live]) {
      for (const id of Object.values(side.ids))
        side.shopifyIds.set(id, id === side.ids.deleted ? [id] : await stack.shopifyIds(side, id));
    }

    // Zero writes left the connector for the shadow shop, in either sandbox.
    const shadowCatalog = (await shadow.account.controls.requests()).filter(
      (r) => r.method !== 'GET' && r.path.startsWith('/v1/') && !r.path.endsWith('/search'),
    );
    expect(shadowCatalog).toEqual([]);
    expect((await stack.mutations(shadow)).slice(mutationsBefore.get(shadow))).toEqual([]);
    const liveMutations = (await stack.mutations(live)).slice(mutationsBefore.get(live));
    expect(liveMutations.length).toBeGreaterThanOrEqual(3);

    const { translate, upload } = await translation();

    // For every record, the preview's final planned state is the state live reached.
    const preview = await stack.admin<ShopPreviewDto>('GET', `/admin/shops/${shadow.domain}/preview`);
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body.mode).toBe('shadow');
    expect(preview.body.products.map((p) => p.productId).sort()).toEqual(Object.values(shadow.ids).sort());
    let compared = 0;
    for (const product of preview.body.products) {
      for (const record of product.records) {
        if (record.source === 'shopify') {
          const state = await stack.shopifyTargets(live, translate(product.productId));
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
          const owner = await stack.mapRow(live, translate(record.supplierSku));
          const attributes = await attributesOf(live, kindOf(record.supplierSku), owner?.skuId);
          expect(attributes.find((a) => a.key === 'media')?.value).toContain(file);
          compared += 1;
          continue;
        }
        const twin = await stack.mapRow(live, translate(record.supplierSku));
        expect(twin, record.supplierSku).toBeDefined();
        if (record.finalState === null) {
          expect(twin?.state).toBe('tombstoned');
          expect((await live.account.api.get(`/v1/products/${twin?.skuId}`)).status).toBe(404);
          compared += 1;
          continue;
        }
        const attributes = await attributesOf(live, kindOf(record.supplierSku), twin?.skuId);
        const kept = await stack.snapshot(live, translate(record.supplierSku));
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
      plans.set(role, translate(await stack.planned(shadow, shadow.ids[role])));
    const previewCalls = translate(preview.body.products.flatMap((p) => p.records.flatMap((r) => r.calls)));
    const catalogPlan = [...plans.values()]
      .flat()
      .filter((r) => r.method !== 'MUTATION')
      .map((r) => `${r.method} ${r.path}`);
    // The preview lists each catalog call once, as the planned writes hold it.
    expect(previewCalls.filter((c) => !c.startsWith('MUTATION ')).sort()).toEqual([...catalogPlan].sort());
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
    const mutationPlan = [...plans.values()].flat().filter((r) => r.method === 'MUTATION');
    expect(previewCalls.filter((c) => c.startsWith('MUTATION ')).sort()).toEqual(
      mutationPlan.map((r) => `MUTATION ${r.path}`).sort(),
    );
  }, 90_000);
});

/** A write-back target's value in Shopify, named as the preview names it. */
function targetValue(state: ShopifyTargets, target: string): unknown {
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
