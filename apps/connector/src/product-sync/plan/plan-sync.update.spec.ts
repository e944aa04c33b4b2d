import { describe, expect, it } from 'vitest';
import {
  applyPlan,
  callLines,
  demoMapping,
  product,
  SHOP,
  variant,
} from '../../../test/support/sync-plan-inputs.js';
import type { CanonicalProduct } from '../../clients/shopify/canonical-product.js';
import { planSync } from './plan-sync.js';
import type { StoredRecord } from './sync-plan.js';

const mapping = demoMapping();

/** Syncs `p` from scratch and answers the map rows the creates left. */
function synced(p: CanonicalProduct): StoredRecord[] {
  return applyPlan(planSync({ shop: SHOP, product: p, mapping, stored: [] }));
}

function withOptions() {
  const s = variant({ options: { Size: 'S', Color: 'Black' }, barcode: '111', price: '20.00' });
  const m = variant({ options: { Size: 'M', Color: 'Black' }, barcode: '222', price: '20.00' });
  return { s, m, p: product({ variants: [s, m] }) };
}

describe('planSync: a product already in the catalog', () => {
  it('makes no call when nothing mapped changed (inventory, tags, timestamps, unmapped fields)', () => {
    const { p } = withOptions();
    const stored = synced(p);
    const touched: CanonicalProduct = {
      ...p,
      updatedAt: '2026-02-02T00:00:00Z',
      tags: ['sale'],
      handle: 'new-handle',
      status: 'DRAFT',
      variants: p.variants.map((v) => ({
        ...v,
        updatedAt: '2026-02-02T00:00:00Z',
        sku: 'NEW',
        duplicateSkuCount: 3,
      })),
    };
    const plan = planSync({ shop: SHOP, product: touched, mapping, stored });
    expect(plan.calls).toEqual([]);
    expect(plan.records.map((r) => r.action)).toEqual(['unchanged', 'unchanged', 'unchanged']);
    expect(plan.records[0]?.shopifyUpdatedAt).toBe('2026-02-02T00:00:00Z');
  });

  it('sends one PATCH by skuId with only the changed attribute', () => {
    const { p } = withOptions();
    const stored = synced(p);
    const plan = planSync({ shop: SHOP, product: { ...p, title: 'Better tee' }, mapping, stored });
    const own = stored.find((r) => r.shopifyVariantId === null) as StoredRecord;
    expect(plan.calls).toEqual([
      {
        kind: 'updateProduct',
        record: { kind: 'parent', shopifyVariantId: null, supplierSku: own.supplierSku },
        skuId: own.skuId,
        body: {
          product: { supplierSku: own.supplierSku, attributes: [{ key: 'name', value: 'Better tee' }] },
        },
      },
    ]);
    expect(plan.records[0]?.snapshot.name).toBe('Better tee');
  });

  it('patches only the variant whose price changed, and clears a removed compare-at price with null', () => {
    const { p, m } = withOptions();
    const stored = synced({ ...p, variants: p.variants.map((v) => ({ ...v, compareAtPrice: '30.00' })) });
    const edited = { ...p, variants: p.variants.map((v) => (v.id === m.id ? { ...v, price: '18.00' } : v)) };
    const plan = planSync({ shop: SHOP, product: edited, mapping, stored });
    const small = stored.find((r) => r.shopifyVariantId === p.variants[0]?.legacyResourceId) as StoredRecord;
    const medium = stored.find((r) => r.shopifyVariantId === m.legacyResourceId) as StoredRecord;
    expect(plan.calls).toEqual([
      {
        kind: 'updateVariant',
        record: { kind: 'variant', shopifyVariantId: small.shopifyVariantId, supplierSku: small.supplierSku },
        skuId: small.skuId,
        body: {
          product: { supplierSku: small.supplierSku, attributes: [{ key: 'compareAtPrice', value: null }] },
        },
      },
      {
        kind: 'updateVariant',
        record: {
          kind: 'variant',
          shopifyVariantId: medium.shopifyVariantId,
          supplierSku: medium.supplierSku,
        },
        skuId: medium.skuId,
        body: {
          product: {
            supplierSku: medium.supplierSku,
            attributes: [
              { key: 'price', value: '18.00' },
              { key: 'compareAtPrice', value: null },
            ],
          },
        },
      },
    ]);
    expect(plan.records[2]?.snapshot).not.toHaveProperty('compareAtPrice');
  });

  it('deletes removed variants before creating new ones, and edits the parent in between', () => {
    const { p, s, m } = withOptions();
    const stored = synced(p);
    const l = variant({ options: { Size: 'L', Color: 'Black' }, barcode: '333' });
    const plan = planSync({ shop: SHOP, product: product({ ...p, variants: [m, l] }), mapping, stored });
    expect(callLines(plan, stored)).toEqual([
      `DELETE /v1/variants/${s.legacyResourceId}`,
      'PATCH /v1/products/own',
      'POST /v1/variants',
    ]);
    expect(plan.calls[1]).toMatchObject({
      body: { product: { attributes: [{ key: 'productModel', value: '222' }] } },
    });
    expect(plan.records.map((r) => [r.shopifyVariantId, r.action])).toEqual([
      [null, 'update'],
      [m.legacyResourceId, 'unchanged'],
      [l.legacyResourceId, 'create'],
      [s.legacyResourceId, 'delete'],
    ]);
  });

  it('a simple product that gains options keeps its record, clears its variant-level values and gains variants', () => {
    const simple = product({
      variants: [variant({ barcode: '111', price: '20.00', compareAtPrice: '25.00' })],
    });
    const stored = synced(simple);
    const own = stored[0] as StoredRecord;
    const { s, m } = withOptions();
    const plan = planSync({ shop: SHOP, product: product({ ...simple, variants: [s, m] }), mapping, stored });
    expect(plan.calls.map((c) => c.kind)).toEqual(['updateProduct', 'createVariant', 'createVariant']);
    expect(plan.calls[0]).toMatchObject({
      skuId: own.skuId,
      record: { kind: 'parent', supplierSku: own.supplierSku },
      body: {
        product: {
          attributes: [
            { key: 'price', value: null },
            { key: 'compareAtPrice', value: null },
            { key: 'gtin', value: null },
          ],
        },
      },
    });
    expect(plan.calls[1]).toMatchObject({ body: { parentSupplierSku: own.supplierSku } });
    expect(plan.records[0]).toMatchObject({ kind: 'parent', action: 'update', skuId: own.skuId });
    expect(plan.records[0]?.snapshot).toEqual({
      name: 'Basic tee',
      brand: 'Acme',
      description: '<p>Soft cotton.</p>',
      productCategory: 'apparel-tops-tshirts',
      productModel: '111',
    });
  });

  it('a parent that loses its options keeps its record, loses its variants and takes the values back', () => {
    const { p } = withOptions();
    const stored = synced(p);
    const own = stored.find((r) => r.shopifyVariantId === null) as StoredRecord;
    const plan = planSync({
      shop: SHOP,
      product: product({ ...p, variants: [variant({ barcode: '111', price: '21.00' })] }),
      mapping,
      stored,
    });
    expect(callLines(plan, stored).slice(0, 2)).toEqual([
      `DELETE /v1/variants/${p.variants[0]?.legacyResourceId}`,
      `DELETE /v1/variants/${p.variants[1]?.legacyResourceId}`,
    ]);
    expect(plan.calls[2]).toMatchObject({
      kind: 'updateProduct',
      skuId: own.skuId,
      body: {
        product: {
          attributes: [
            { key: 'price', value: '21.00' },
            { key: 'gtin', value: '111' },
          ],
        },
      },
    });
    expect(plan.calls).toHaveLength(3);
    expect(plan.records[0]).toMatchObject({ kind: 'simple', action: 'update' });
    expect(applyPlan(plan)).toHaveLength(1);
  });

  it('recreates a record found gone from the catalog (skuId cleared) with a look-up first', () => {
    const { p } = withOptions();
    const stored = synced(p).map((r) =>
      r.kind === 'variant' && r.shopifyVariantId === p.variants[1]?.legacyResourceId
        ? { ...r, skuId: null }
        : r,
    );
    const plan = planSync({ shop: SHOP, product: p, mapping, stored });
    expect(plan.calls).toEqual([expect.objectContaining({ kind: 'createVariant', lookupFirst: true })]);
    expect(plan.calls[0]).toMatchObject({
      body: { attributes: expect.arrayContaining([{ key: 'size', value: 'M' }]) },
    });
  });

  it('recreates the variants too when the parent itself is recreated', () => {
    const { p } = withOptions();
    const stored = synced(p).map((r) => (r.shopifyVariantId === null ? { ...r, skuId: null } : r));
    const plan = planSync({ shop: SHOP, product: p, mapping, stored });
    expect(plan.calls.map((c) => [c.kind, 'lookupFirst' in c && c.lookupFirst])).toEqual([
      ['createProduct', true],
      ['createVariant', true],
      ['createVariant', true],
    ]);
    expect(plan.records.map((r) => r.supplierSku)).toEqual(stored.map((r) => r.supplierSku));
  });

  it('leaves alone an attribute the mapping no longer owns', () => {
    const { p } = withOptions();
    const stored = synced(p);
    const withoutCompare = demoMapping(
      `version: 1
product: { title: name, vendor: brand }
variant: { price: price, options: { Size: size } }
`,
    );
    const plan = planSync({ shop: SHOP, product: { ...p, title: 'New' }, mapping: withoutCompare, stored });
    expect(plan.calls).toEqual([
      expect.objectContaining({
        body: { product: expect.objectContaining({ attributes: [{ key: 'name', value: 'New' }] }) },
      }),
    ]);
    expect(plan.records[0]?.snapshot).toEqual({ name: 'New', brand: 'Acme' });
  });

  it('replaces arrays whole', () => {
    const tagsMapping = demoMapping(`version: 1
product:
  title: name
  vendor: brand
  tags: { attribute: occasions, unknownValues: drop }
`);
    const p = product({ tags: ['casual', 'sport'] });
    const stored = applyPlan(planSync({ shop: SHOP, product: p, mapping: tagsMapping, stored: [] }));
    expect(stored[0]?.snapshot.occasions).toEqual(['Casual', 'Sport']);
    const plan = planSync({
      shop: SHOP,
      product: { ...p, tags: ['sport', 'casual', 'misc'] },
      mapping: tagsMapping,
      stored,
    });
    expect(plan.calls[0]).toMatchObject({
      body: { product: { attributes: [{ key: 'occasions', value: ['Sport', 'Casual'] }] } },
    });
    const same = planSync({
      shop: SHOP,
      product: { ...p, tags: ['Casual', 'Sport', 'other'] },
      mapping: tagsMapping,
      stored,
    });
    expect(same.calls).toEqual([]);
  });
});
