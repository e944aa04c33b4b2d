import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productBody } from '#testing/catalog-sandbox';
import type { DriftRepairOutcome } from '../src/drift/drift-repairs.js';
import type { DriftReportDto } from '../src/drift/drift-report.dto.js';
import { ProductTimeline } from '../src/operations/admin/product-timeline.js';
import { SkuMapRepository } from '../src/product-sync/sku-map/sku-map.repository.js';
import { WriteBackStates } from '../src/write-back/store/write-back-states.repository.js';
import { call } from './support/admin-client.js';
import { eventually } from './support/connector-harness.js';
import { ADMIN_TOKEN, EnrichmentFixture, type MappedProduct } from './support/enrichment-fixture.js';

// Issue 32's "done when": every kind of drift seeded behind the connector's back over both
// sandboxes (real HTTP servers), one report finds each with its repair, the operator's chosen
// repairs run through the admin API, and the next report finds none of them. The kinds: a
// catalog value a person changed, a dropped update webhook, a map row whose record is gone,
// orphans (the shop's own supplierSku naming a product: adopted, a product with options whole
// with its variant records; a stranger's; a record as
// linking leaves it, its supplierSku a SKU; a variant record keyed by a variant SKU under a
// claimed parent), a duplicate supplierSku, a written-back value a merchant edited with its
// webhook dropped (accepted), and a written-back value the catalog rejected after approval
// with no poll to see it (retracted).
describe('drift report: every kind, repaired', () => {
  let fx: EnrichmentFixture;

  beforeAll(async () => {
    fx = await EnrichmentFixture.start();
  });
  afterAll(async () => {
    await fx?.close();
  });

  const api = <T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) =>
    call<T>(fx.harness.url, method, path, ADMIN_TOKEN, body);
  const created = (answer: { status: number; body: { data: { skuId: string } } }) => {
    expect(answer.status).toBeLessThan(300);
    return answer.body.data.skuId;
  };
  /** Shopify's updatedAt counts whole seconds: a dropped update must land a second after its sync. */
  const nextSecond = async () => {
    const at = Date.now();
    await eventually(async () => Math.floor(Date.now() / 1000) > Math.floor(at / 1000));
  };
  const dropped = async (product: MappedProduct, change: Record<string, unknown>) => {
    await nextSecond();
    await fx.sandboxes.shopify.control('PUT', `shops/${fx.shop.domain}/delivery-faults`, { drop: 1 });
    const edit = await fx.sandboxes.merchant(fx.shop, 'PUT', `products/${product.productId}.json`, {
      product: { id: Number(product.productId), ...change },
    });
    expect(edit.status).toBe(200);
    await fx.sandboxes.shopify.sandbox.idle();
    // `drop` is a probability: every later delivery is sent again.
    await fx.sandboxes.shopify.control('PUT', `shops/${fx.shop.domain}/delivery-faults`, { drop: 0 });
  };
  const report = async () => {
    const answer = await api<DriftReportDto>('POST', `/admin/shops/${fx.shop.domain}/drift`);
    expect(answer.status).toBe(200);
    return answer.body;
  };

  it('finds each kind with its repair, the chosen repairs run, and the next report clears them', async () => {
    const [edited, gone, missed, adoptable, merchant, rejected] = (await fx.simpleProducts(6)) as [
      MappedProduct,
      MappedProduct,
      MappedProduct,
      MappedProduct,
      MappedProduct,
      MappedProduct,
    ];
    const options = await fx.product('Linen shirt');
    // Two products get an approved SEO title written back to Shopify.
    await fx.enrich([merchant.parentSku, rejected.parentSku]);
    for (const p of [merchant, rejected]) await fx.review(p.parentSku, { approve: ['seoTitle'] });
    await fx.poll();
    for (const p of [merchant, rejected]) {
      expect((await fx.shopify(p.gid)).seo.title).toBe(await fx.value(p.parentSku, 'seoTitle'));
      await fx.settle(p.productId);
    }
    const clean = await report();
    expect(clean.findings).toEqual([]);

    // Behind the connector's back:
    const map = fx.harness.connector.app.get(SkuMapRepository);
    const supplierSkuOf = async (p: MappedProduct) =>
      (await map.rowsOfProduct(fx.shop.domain, p.productId)).find((r) => r.shopifyVariantId === null)
        ?.supplierSku as string;
    // a person renames a record in the catalog;
    expect(
      (
        await fx.account.api.patch(`/v1/products/${edited.parentSku}`, {
          product: {
            supplierSku: await supplierSkuOf(edited),
            attributes: [{ key: 'name', value: 'Renamed' }],
          },
        })
      ).status,
    ).toBe(200);
    // a record is deleted;
    expect((await fx.account.api.delete(`/v1/products/${gone.parentSku}`)).status).toBe(200);
    // a map row is lost (an old backup restored): its record, with the shop's supplierSku, is an orphan;
    const adoptableSupplierSku = await supplierSkuOf(adoptable);
    expect(await map.forget(fx.shop.domain, [adoptableSupplierSku])).toBe(1);
    // and a product with options loses its rows too: its parent and variant records are orphans;
    const optionRows = await map.rowsOfProduct(fx.shop.domain, options.productId);
    expect(
      await map.forget(
        fx.shop.domain,
        optionRows.map((r) => r.supplierSku),
      ),
    ).toBe(3);
    // records nobody claims: a stranger's, one as linking leaves it (a SKU as supplierSku), and a
    // variant record keyed by a variant SKU under a claimed parent;
    const tag = `${Date.now()}`;
    const stranger = created(await fx.account.api.post('/v1/products', productBody(`stranger-${tag}`)));
    const linked = created(await fx.account.api.post('/v1/products', productBody(`LNK-${tag}`)));
    const variantSku = created(
      await fx.account.api.post('/v1/variants', {
        parentSupplierSku: await supplierSkuOf(missed),
        supplierSku: `LNK-${tag}-S`,
        attributes: [],
      }),
    );
    // a second record with a claimed supplierSku;
    const twin = created(await fx.account.api.post('/v1/products', productBody(await supplierSkuOf(edited))));
    // an update whose webhook is dropped; a merchant's edit of a written-back value, its webhook dropped;
    await dropped(missed, { title: 'Plain tee, renamed' });
    await dropped(merchant, { metafields_global_title_tag: 'The merchant title' });
    // an approved value rejected, and no poll to see it.
    await fx.review(rejected.parentSku, { reject: ['seoTitle'] });

    const found = await report();
    const byKind = (kind: string) => found.findings.filter((f) => f.kind === kind);
    const seen = found.findings.map((f) => [f.kind, f.productId ?? f.skuId, f.repair]);
    expect(seen).toEqual(
      expect.arrayContaining([
        ['catalog-changed', edited.productId, 'resync'],
        ['record-gone', gone.productId, 'resync'],
        ['missed-webhook', missed.productId, 'resync'],
        ['missed-webhook', merchant.productId, 'resync'],
        ['orphan', adoptable.productId, 'adopt'],
        ['orphan', options.productId, 'adopt'],
        ['orphan', options.productId, 'adopt'],
        ['orphan', options.productId, 'adopt'],
        ['orphan', stranger, 'delete-record'],
        ['orphan', linked, 'delete-record'],
        ['orphan', variantSku, 'delete-record'],
        ['duplicate', twin, 'delete-record'],
        ['written-back-differs', merchant.productId, 'accept-merchant'],
        ['no-longer-approved', rejected.productId, 'retract'],
      ]),
    );
    expect(found.findings).toHaveLength(14);
    expect(
      byKind('orphan')
        .filter((f) => f.parentSkuId === options.parentSku)
        .map((f) => f.skuId)
        .sort(),
    ).toEqual([...options.variantSkus].sort());
    expect(byKind('orphan').find((f) => f.skuId === variantSku)?.parentSkuId).toBe(missed.parentSku);
    expect(byKind('written-back-differs')[0]).toMatchObject({
      ownerId: merchant.gid,
      field: 'seoTitle',
      target: 'seo.title',
      found: 'The merchant title',
      expected: await fx.value(merchant.parentSku, 'seoTitle'),
    });
    expect(byKind('no-longer-approved')[0]).toMatchObject({
      ownerId: rejected.gid,
      field: 'seoTitle',
      target: 'seo.title',
      found: (await fx.shopify(rejected.gid)).seo.title,
      expected: null,
    });

    // The operator chooses: the written-back kinds first (each of a kind), then the rest by id.
    const repair = async (body: unknown) => {
      const answer = await api<{ repairs: DriftRepairOutcome[] }>(
        'POST',
        `/admin/drift/${found.id}/repairs`,
        body,
      );
      expect(answer.status).toBe(200);
      return answer.body.repairs.map((r) => [r.kind, r.outcome, r.reason ?? '']);
    };
    // In shadow mode the written-back repairs are refused, saying why, and their findings stay open.
    const mode = (to: string) => api('PUT', `/admin/shops/${fx.shop.domain}/mode`, { mode: to });
    expect((await mode('shadow')).status).toBe(200);
    const shadow = 'the shop is in shadow mode: nothing is written to Shopify';
    expect(await repair({ kind: 'written-back-differs' })).toEqual([
      ['written-back-differs', 'refused', shadow],
    ]);
    expect(await repair({ kind: 'no-longer-approved' })).toEqual([['no-longer-approved', 'refused', shadow]]);
    expect((await mode('live')).status).toBe(200);
    expect(await repair({ kind: 'written-back-differs' })).toEqual([
      ['written-back-differs', 'accepted', ''],
    ]);
    expect(await repair({ kind: 'no-longer-approved' })).toEqual([['no-longer-approved', 'retracted', '']]);
    const rest = found.findings.filter(
      (f) => !f.kind.startsWith('written') && f.kind !== 'no-longer-approved',
    );
    expect((await repair({ ids: rest.map((f) => f.id) })).sort()).toEqual(
      [
        ['catalog-changed', 'enqueued', ''],
        ['record-gone', 'enqueued', ''],
        ['missed-webhook', 'enqueued', ''],
        ['missed-webhook', 'enqueued', ''],
        ['orphan', 'adopted', ''],
        ['orphan', 'adopted', ''],
        ['orphan', 'adopted', ''],
        ['orphan', 'adopted', ''],
        ['orphan', 'deleted', ''],
        ['orphan', 'deleted', ''],
        ['orphan', 'deleted', ''],
        ['duplicate', 'deleted', ''],
      ].sort(),
    );

    // The retracted value is out of Shopify (nothing was there before), the merchant's stays and
    // is the merchant's; each repair is in its product's timeline.
    expect((await fx.shopify(rejected.gid)).seo.title).toBeNull();
    expect((await fx.shopify(merchant.gid)).seo.title).toBe('The merchant title');
    const states = fx.harness.connector.app.get(WriteBackStates);
    const seoState = async (p: MappedProduct) =>
      (await states.forProduct(fx.shop.domain, p.productId)).find((s) => s.target === 'seo.title')?.status;
    expect([await seoState(merchant), await seoState(rejected)]).toEqual(['merchant-owned', 'retracted']);
    const timeline = fx.harness.connector.app.get(ProductTimeline);
    const repairsOf = async (p: MappedProduct) =>
      (await timeline.events(fx.shop.domain, p.productId))
        .filter((e) => e.kind === 'drift-repair')
        .map((e) => e.summary)
        .sort();
    expect(await repairsOf(merchant)).toEqual([
      'drift missed-webhook: resync enqueued',
      'drift written-back-differs (seoTitle): accept-merchant accepted',
    ]);
    expect(await repairsOf(rejected)).toEqual(['drift no-longer-approved (seoTitle): retract retracted']);
    expect(await repairsOf(adoptable)).toEqual(['drift orphan: adopt adopted']);
    expect(await repairsOf(options)).toEqual(Array(3).fill('drift orphan: adopt adopted'));
    // The product with options is claimed whole again: the same three records, nothing created twice.
    const claimed = await map.rowsOfProduct(fx.shop.domain, options.productId);
    expect(claimed.map((r) => r.skuId).sort()).toEqual([options.parentSku, ...options.variantSkus].sort());
    expect(claimed.map((r) => r.supplierSku).sort()).toEqual(optionRows.map((r) => r.supplierSku).sort());

    // Once the enqueued syncs (and the retraction's own update webhook) ran, a second report
    // finds none of them, nor anything else.
    const keys = found.findings.map((f) => f.key);
    const cleared = await eventually(async () => {
      for (const p of [edited, gone, missed, adoptable, merchant, rejected, options])
        await fx.settle(p.productId);
      const next = await report();
      return next.findings.length === 0 && next;
    }, 60_000);
    expect(cleared.findings.filter((f) => keys.includes(f.key))).toEqual([]);
    expect(await fx.value(edited.parentSku, 'name')).not.toBe('Renamed');
  });

  it("retracts a product's and a variant's written-back values the catalog rejected: metafields, tags", async () => {
    const product = await fx.product('Wool scarf');
    const [variantSku] = product.variantSkus as [string];
    const [variantGid] = product.variantGids as [string];
    await fx.enrich([product.parentSku, ...product.variantSkus]);
    await fx.review(product.parentSku, { approve: ['material', 'aiTags'] });
    await fx.review(variantSku, { approve: ['variantTitle'] });
    await fx.poll();
    await fx.settle(product.productId);
    const metafield = (
      state: Awaited<ReturnType<EnrichmentFixture['shopify']>>,
      owner: string,
      key: string,
    ) => state.metafields.find((m) => m.ownerId === owner && m.key === key)?.value;
    const pushed = await fx.shopify(product.gid);
    expect(metafield(pushed, product.gid, 'material')).toBe(await fx.value(product.parentSku, 'material'));
    expect(metafield(pushed, variantGid, 'variant_title')).toBe(await fx.value(variantSku, 'variantTitle'));
    expect(pushed.tags.length).toBeGreaterThan(1);

    // Rejected after approval, and no poll to see it.
    await fx.review(product.parentSku, { reject: ['material', 'aiTags'] });
    await fx.review(variantSku, { reject: ['variantTitle'] });
    // (A sync that changed only the product's own record left its variant rows at an older
    // updatedAt: no missed webhook for that.)
    const found = await report();
    const mine = found.findings.filter((f) => f.productId === product.productId);
    expect(mine.map((f) => [f.kind, f.ownerId, f.field, f.target, f.repair]).sort()).toEqual(
      [
        ['no-longer-approved', product.gid, 'aiTags', 'tags', 'retract'],
        ['no-longer-approved', product.gid, 'material', 'metafield:$app:catalog.material', 'retract'],
        ['no-longer-approved', variantGid, 'variantTitle', 'metafield:$app:catalog.variant_title', 'retract'],
      ].sort(),
    );
    const answer = await api<{ repairs: DriftRepairOutcome[] }>('POST', `/admin/drift/${found.id}/repairs`, {
      ids: mine.map((f) => f.id),
    });
    expect(answer.body.repairs.map((r) => r.outcome)).toEqual(['retracted', 'retracted', 'retracted']);
    const retracted = await fx.shopify(product.gid);
    expect(metafield(retracted, product.gid, 'material')).toBeUndefined();
    expect(metafield(retracted, variantGid, 'variant_title')).toBeUndefined();
    expect(retracted.tags).toEqual(['linen']);
    const cleared = await eventually(async () => {
      await fx.settle(product.productId);
      const next = await report();
      return next.findings.every((f) => f.productId !== product.productId) && next;
    }, 30_000);
    expect(cleared.counts['no-longer-approved']).toBe(0);
  });
});
