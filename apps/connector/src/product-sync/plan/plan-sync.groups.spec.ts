import { describe, expect, it } from 'vitest';
import { demoMapping, product, SHOP, variant } from '../../../test/support/sync-plan-inputs.js';
import type { CanonicalProduct, CanonicalVariant } from '../../clients/shopify/canonical-product.js';
import { planSync } from './plan-sync.js';
import type { StoredRecord, SyncPlan } from './sync-plan.js';

const mapping = demoMapping();

/** `colours` × `sizes` variants, colour by colour, each option value with its id (as Shopify reads them). */
function matrix(colours: number, sizes: number): CanonicalVariant[] {
  const variants: CanonicalVariant[] = [];
  for (let c = 1; c <= colours; c++) {
    for (let s = 1; s <= sizes; s++) {
      const v = variant({ options: { Colour: `C${c}`, Size: `S${s}` } });
      variants.push({
        ...v,
        selectedOptions: [
          { name: 'Colour', value: `C${c}`, optionValueId: `gid://shopify/ProductOptionValue/${100 + c}` },
          { name: 'Size', value: `S${s}`, optionValueId: `gid://shopify/ProductOptionValue/${5000 + s}` },
        ],
      });
    }
  }
  return variants;
}

/** The plan applied: the sku map rows the next plan reads (parents and variants' parents included). */
function apply(plan: SyncPlan): StoredRecord[] {
  let next = 1;
  return plan.records
    .filter((r) => r.action !== 'delete')
    .map((r) => ({
      kind: r.kind,
      shopifyVariantId: r.shopifyVariantId,
      supplierSku: r.supplierSku,
      skuId: r.skuId ?? `SK${String(next++).padStart(8, '0')}`,
      snapshot: r.snapshot,
      parentSupplierSku: r.parentSupplierSku,
      variantGroup: r.variantGroup ?? null,
    }));
}

const split = (p: CanonicalProduct, stored: StoredRecord[] = []) =>
  planSync({ shop: SHOP, product: p, mapping, stored, largeProducts: 'split' });

describe('planSync: a product over 200 variants (the split policy)', () => {
  it('makes 3 colours × 200 sizes three parents of 200, one per colour, each variant under its own', () => {
    const p = product({ variants: matrix(3, 200) });
    const plan = split(p);
    expect(plan.status).toBe('planned');
    const parents = plan.calls.filter((c) => c.kind === 'createProduct');
    const base = `demo:product:${p.legacyResourceId}`;
    expect(parents.map((c) => c.record.supplierSku)).toEqual([`${base}:101`, `${base}:102`, `${base}:103`]);
    expect(plan.calls.slice(0, 3).every((c) => c.kind === 'createProduct')).toBe(true);
    const creates = plan.calls.filter((c) => c.kind === 'createVariant');
    expect(creates).toHaveLength(600);
    const perParent = new Map<string, number>();
    for (const c of creates) {
      if (c.kind !== 'createVariant') continue;
      perParent.set(c.body.parentSupplierSku, (perParent.get(c.body.parentSupplierSku) ?? 0) + 1);
    }
    expect([...perParent.values()]).toEqual([200, 200, 200]);
    const first = p.variants[0] as CanonicalVariant;
    expect(plan.records.find((r) => r.shopifyVariantId === first.legacyResourceId)?.parentSupplierSku).toBe(
      `${base}:101`,
    );
    expect(plan.records.filter((r) => r.kind === 'parent').map((r) => r.variantGroup)).toEqual([
      '101',
      '102',
      '103',
    ]);
  });

  it('makes 2 colours × 1,024 sizes twelve parents, six per colour, none over 200', () => {
    const p = product({ variants: matrix(2, 1024) });
    const plan = split(p);
    const parents = plan.records.filter((r) => r.kind === 'parent');
    expect(parents).toHaveLength(12);
    expect(parents.map((r) => r.variantGroup)).toEqual([
      '101',
      '101-2',
      '101-3',
      '101-4',
      '101-5',
      '101-6',
      '102',
      '102-2',
      '102-3',
      '102-4',
      '102-5',
      '102-6',
    ]);
    const counts = new Map<string, number>();
    for (const r of plan.records)
      if (r.kind === 'variant')
        counts.set(r.parentSupplierSku as string, (counts.get(r.parentSupplierSku as string) ?? 0) + 1);
    expect(Math.max(...counts.values())).toBe(200);
    expect([...counts.values()].reduce((a, b) => a + b, 0)).toBe(2048);
  });

  it('plans nothing when an option value is renamed (its id is the group key)', () => {
    const p = product({ variants: matrix(3, 70) });
    const stored = apply(split(p));
    const renamed = {
      ...p,
      variants: p.variants.map((v) => ({
        ...v,
        selectedOptions: v.selectedOptions.map((o) => (o.value === 'C2' ? { ...o, value: 'Crimson' } : o)),
      })),
    };
    const plan = split(renamed, stored);
    expect(plan.calls.filter((c) => c.kind.startsWith('delete') || c.kind.startsWith('create'))).toEqual([]);
  });

  it('deletes and creates a variant that moves to another group (the catalog cannot re-parent)', () => {
    const p = product({ variants: matrix(3, 70) });
    const stored = apply(split(p));
    const moving = p.variants[0] as CanonicalVariant;
    const moved = {
      ...p,
      variants: p.variants.map((v) =>
        v === moving
          ? {
              ...v,
              selectedOptions: [
                { name: 'Colour', value: 'C3', optionValueId: 'gid://shopify/ProductOptionValue/103' },
                ...v.selectedOptions.slice(1),
              ],
            }
          : v,
      ),
    };
    const plan = split(moved, stored);
    const sku = stored.find((r) => r.shopifyVariantId === moving.legacyResourceId) as StoredRecord;
    const deletes = plan.calls.filter((c) => c.kind === 'deleteVariant');
    const creates = plan.calls.filter((c) => c.kind === 'createVariant');
    expect(deletes).toEqual([
      {
        kind: 'deleteVariant',
        record: expect.objectContaining({ supplierSku: sku.supplierSku }),
        skuId: sku.skuId,
      },
    ]);
    expect(creates).toHaveLength(1);
    expect(creates[0]).toMatchObject({
      lookupFirst: false,
      body: { supplierSku: sku.supplierSku, parentSupplierSku: `demo:product:${p.legacyResourceId}:103` },
    });
    expect(plan.calls.indexOf(deletes[0] as never)).toBeLessThan(plan.calls.indexOf(creates[0] as never));
  });

  it('moves a one-parent product that grows over 200 into groups: old parent deleted after its variants', () => {
    const p = product({ variants: matrix(2, 100) });
    const one = apply(planSync({ shop: SHOP, product: p, mapping, stored: [] }));
    const grown = product({
      legacyResourceId: p.legacyResourceId,
      variants: [...p.variants, ...matrix(1, 1)],
    });
    const plan = split(
      grown,
      one.map((r) => ({
        ...r,
        parentSupplierSku: r.kind === 'variant' ? `demo:product:${p.legacyResourceId}` : null,
      })),
    );
    const kinds = plan.calls.map((c) => c.kind);
    expect(kinds.filter((k) => k === 'deleteVariant')).toHaveLength(200);
    expect(kinds.indexOf('deleteProduct')).toBe(200);
    expect(kinds.filter((k) => k === 'createProduct')).toHaveLength(2);
    expect(kinds.filter((k) => k === 'createVariant')).toHaveLength(201);
  });

  it('keeps a product within 200 exactly as before under the split policy', () => {
    const p = product({ variants: matrix(2, 100) });
    const before = planSync({ shop: SHOP, product: p, mapping, stored: [] });
    expect(split(p)).toEqual(before);
  });

  it('fails a product over 200 under the fail policy, the default of the planner', () => {
    const plan = planSync({ shop: SHOP, product: product({ variants: matrix(3, 70) }), mapping, stored: [] });
    expect(plan.failure?.code).toBe('variant-limit-exceeded');
  });

  it('plans nothing from a read that missed variants', () => {
    const p = product({ variants: matrix(3, 70) });
    const plan = split({ ...p, variantsCount: 250 });
    expect(plan).toMatchObject({ status: 'failed', failure: { code: 'variants-not-read' }, calls: [] });
  });
});
