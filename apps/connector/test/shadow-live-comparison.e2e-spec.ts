import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShopPreviewDto } from '../src/operations/admin/shop-preview.dto.js';
import type { ShopifyProductState } from '../src/write-back/decide/write-back-state.js';
import { namespaceMatches } from '../src/write-back/decide/write-back-state.js';
import { eventually } from './support/connector-harness.js';
import { TwoShopWorld, type WorldShop } from './support/two-shop-world.js';
import type { WorldPlannedRow } from './support/world-tables.js';

const APPROVE = ['seoTitle', 'aiTags', 'material', 'careInstructions'];
type Role = 'edited' | 'deleted' | 'approved' | 'created';

/** A shop of the comparison: its products by role, and each one's Shopify ids in Shopify's order. */
interface Side extends WorldShop {
  ids: Record<Role, string>;
  shopifyIds: Map<string, string[]>;
}

// Issue 31, "Done when": one scenario (a product created with images, one edited, one deleted,
// one whose enrichment is approved in the catalog) played on two shops with the same inputs, one
// in shadow and one live, each into its own catalog account, through real webhooks and both
// sandboxes. The shadow shop sends no catalog product, variant or upload write and no Shopify
// product, tag or metafield mutation; its preview's final planned state of every record equals
// what the live shop's record reached (field by field, ids translated); and each product, changed
// once here, was planned call for call as live sent it.
describe('issue 31: a shop in shadow against the same run in live', () => {
  let world: TwoShopWorld;
  let shadow: Side;
  let live: Side;

  beforeAll(async () => {
    world = await TwoShopWorld.start(['shadow', 'live']);
    const side = (name: string): Side => ({
      ...world.shop(name),
      ids: {} as Side['ids'],
      shopifyIds: new Map(),
    });
    [shadow, live] = [side('shadow'), side('live')];
  });
  afterAll(async () => {
    await world?.close();
  });

  /** Before the switch, in both shops: a product to edit (two sizes, an image), one to delete, one to enrich. */
  const before = async (side: Side, started: number) => {
    side.ids.edited = await world.createProduct(side.shop, {
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
    side.ids.deleted = await world.createProduct(side.shop, {
      title: 'Felt coaster',
      vendor: 'Acme',
      product_type: 'Cookware',
    });
    side.ids.approved = await world.createProduct(side.shop, {
      title: 'Wool sweater',
      vendor: 'Acme',
      product_type: 'Sweaters',
      tags: 'wool',
      variants: [{ price: '80.00', barcode: '4006381333955' }],
    });
    for (const id of [side.ids.edited, side.ids.deleted, side.ids.approved])
      await world.settled(side.shop, id);
    await eventually(
      async () =>
        (await world.tables.mapRows(side.shop, side.ids.edited)).filter((r) => r.state === 'live').length ===
        3,
    );
    await world.tables.mediaRun(side.shop, side.ids.edited, started);
  };

  /** The run, the same in both shops: a create with two images, an edit, a delete, an approval. */
  const run = async (side: Side) => {
    side.ids.created = await world.createProduct(side.shop, {
      title: 'Stoneware mug',
      vendor: 'Acme',
      product_type: 'Cookware',
      variants: [{ price: '12.00', barcode: '4006381333962' }],
      images: ['front', 'back'].map((n) => ({ src: `https://example.com/${n}.jpg`, alt: n })),
    });
    await world.merchant(side.shop, 'PUT', `products/${side.ids.edited}.json`, {
      product: {
        id: Number(side.ids.edited),
        title: 'Linen shirt, washed',
        body_html: '<p>Washed linen.</p>',
      },
    });
    await world.merchant(side.shop, 'DELETE', `products/${side.ids.deleted}.json`);
    const [record] = await world.tables.mapRows(side.shop, side.ids.approved);
    await world.enrichAndApprove(side.account, record?.sku_id as string, APPROVE);
  };

  /**
   * Shadow's ids in live's terms: the shop's name in supplierSkus, products, variants and images
   * by position, records by supplierSku, image files by image, and a planned create's `{skuId}`.
   */
  const translation = async () => {
    const swaps = new Map<string, string>();
    const name = (side: Side) => side.shop.domain.replace('.myshopify.com', '');
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
      for (const row of await world.tables.mapRows(shadow.shop, shadow.ids[role])) {
        const twin = await world.tables.mapRow(live.shop, translate(row.supplier_sku));
        if (row.sku_id && twin?.sku_id) swaps.set(row.sku_id, twin.sku_id);
      }
    }
    swaps.set('{skuId}', (await world.tables.mapRows(live.shop, live.ids.created))[0]?.sku_id as string);
    const liveFiles = await world.tables.fileIds(live.shop);
    for (const [media, file] of await world.tables.fileIds(shadow.shop))
      swaps.set(file, liveFiles.get(translate(media)) as string);
    const upload = (entry: string) => {
      const gid = /^upload:(gid:\/\/shopify\/MediaImage\/\d+)$/.exec(entry)?.[1];
      return gid === undefined ? entry : (liveFiles.get(gid) as string);
    };
    return { translate, upload };
  };

  it('sends nothing in shadow, and previews exactly the state and the calls live reaches', async () => {
    const started = Date.now();
    for (const side of [shadow, live]) await before(side, started);

    // The shadow shop goes into shadow; from here on both get the same inputs.
    expect(
      (await world.admin('PUT', `/admin/shops/${shadow.shop.domain}/mode`, { mode: 'shadow' })).status,
    ).toBe(200);
    const mutationsBefore = new Map<Side, number>();
    for (const side of [shadow, live]) {
      mutationsBefore.set(side, (await world.mutations(side.shop)).length);
      await side.account.controls.clearRequests();
    }
    const switched = Date.now();
    for (const side of [shadow, live]) await run(side);
    for (const side of [shadow, live])
      for (const id of [side.ids.created, side.ids.edited, side.ids.deleted])
        await world.settled(side.shop, id);
    await world.poll();
    // Live: the new product's images are in; shadow: its media plan is there.
    await world.tables.mediaRun(live.shop, live.ids.created, switched);
    await eventually(
      async () =>
        (await world.tables.planned(shadow.shop, shadow.ids.created)).some((r) => r.source === 'media'),
      30_000,
    );
    for (const side of [shadow, live]) {
      for (const id of Object.values(side.ids))
        side.shopifyIds.set(id, id === side.ids.deleted ? [id] : await world.shopifyIds(side.shop, id));
    }

    // Zero writes left the connector for the shadow shop, in either sandbox.
    const shadowCatalog = (await shadow.account.controls.requests()).filter(
      (r) => r.method !== 'GET' && r.path.startsWith('/v1/') && !r.path.endsWith('/search'),
    );
    expect(shadowCatalog).toEqual([]);
    expect((await world.mutations(shadow.shop)).slice(mutationsBefore.get(shadow))).toEqual([]);
    const liveMutations = (await world.mutations(live.shop)).slice(mutationsBefore.get(live));
    expect(liveMutations.length).toBeGreaterThanOrEqual(3);

    const { translate, upload } = await translation();

    // For every record, the preview's final planned state is the state live reached.
    const preview = await world.admin<ShopPreviewDto>('GET', `/admin/shops/${shadow.shop.domain}/preview`);
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body.products.map((p) => p.productId).sort()).toEqual(Object.values(shadow.ids).sort());
    let compared = 0;
    for (const product of preview.body.products) {
      for (const record of product.records) {
        if (record.source === 'shopify') {
          const state = await world.shopifyState(live.shop, translate(product.productId));
          for (const [target, value] of Object.entries(translate(record.finalState ?? {}))) {
            const expected = target === 'tags' ? [...(value as string[])].sort() : value;
            expect(targetValue(state, target), target).toEqual(expected);
            compared += 1;
          }
          continue;
        }
        if (record.kind === 'upload') {
          // An image upload: live uploaded that image, and the record it names holds its file.
          const entry = translate(record.finalState ?? {});
          const file = upload(String(entry.fileId));
          expect(file, String(entry.shopifyMediaId)).toMatch(/\S/);
          expect(entry.sourceUrl).toBe(record.image?.sourceUrl);
          const owner = await world.tables.mapRow(live.shop, translate(record.supplierSku));
          const path = record.supplierSku.includes(':variant:') ? 'variants' : 'products';
          const answer = await live.account.api.get(`/v1/${path}/${owner?.sku_id}`).expect(200);
          const attributes = answer.body.data.attributes as Array<{ key: string; value: unknown }>;
          expect(attributes.find((a) => a.key === 'media')?.value).toContain(file);
          compared += 1;
          continue;
        }
        const twin = await world.tables.mapRow(live.shop, translate(record.supplierSku));
        expect(twin, record.supplierSku).toBeDefined();
        if (record.finalState === null) {
          expect(twin?.state).toBe('tombstoned');
          expect((await live.account.api.get(`/v1/products/${twin?.sku_id}`)).status).toBe(404);
          compared += 1;
          continue;
        }
        const kind = record.supplierSku.includes(':variant:') ? 'variants' : 'products';
        const answer = await live.account.api.get(`/v1/${kind}/${twin?.sku_id}`).expect(200);
        const attributes = answer.body.data.attributes as Array<{ key: string; value: unknown }>;
        for (const [key, value] of Object.entries(translate(record.finalState))) {
          const expected = key === 'media' ? (value as string[]).map(upload) : value;
          const reached = attributes.find((a) => a.key === key)?.value ?? null;
          expect(reached, `${record.supplierSku} ${key}`).toEqual(expected);
          if (key !== 'media') expect(twin?.snapshot[key], `${record.supplierSku} ${key}`).toEqual(value);
          compared += 1;
        }
      }
    }
    expect(compared).toBeGreaterThan(10);

    // Each product was changed once: its plan is live's calls, call for call (the catalog's by
    // method and path, each naming its record or made for the one new product; Shopify's with
    // their variables, per product).
    const plans = new Map<Role, WorldPlannedRow[]>();
    for (const role of Object.keys(shadow.ids) as Role[])
      plans.set(role, translate(await world.tables.planned(shadow.shop, shadow.ids[role])));
    const catalogPlan = [...plans.values()]
      .flat()
      .filter((r) => r.method !== 'MUTATION')
      .map((r) => `${r.method} ${r.path}`);
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
