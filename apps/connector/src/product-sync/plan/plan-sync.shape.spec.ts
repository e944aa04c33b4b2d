import { describe, expect, it } from 'vitest';
import { demoMapping, product, SHOP, variant } from '../../../test/support/sync-plan-inputs.js';
import type { CanonicalProduct, CanonicalVariant } from '../../clients/shopify/canonical-product.js';
import { planSync } from './plan-sync.js';
import type { StoredRecord, SyncPlan } from './sync-plan.js';

const mapping = demoMapping();

/**
 * `colours` × `sizes` variants, colour by colour, each option value with its id (as Shopify reads
 * them); `sizeFirst` lists Size as the first option (the product regrouped by size).
 */
function matrix(colours: number, sizes: number, sizeFirst = false): CanonicalVariant[] {
  const variants: CanonicalVariant[] = [];
  for (let c = 1; c <= colours; c++) {
    for (let s = 1; s <= sizes; s++) {
      const colour = {
        name: 'Colour',
        value: `C${c}`,
        optionValueId: `gid://shopify/ProductOptionValue/${100 + c}`,
      };
      const size = {
        name: 'Size',
        value: `S${s}`,
        optionValueId: `gid://shopify/ProductOptionValue/${5000 + s}`,
      };
      variants.push({
        ...variant({ options: { Colour: `C${c}`, Size: `S${s}` } }),
        selectedOptions: sizeFirst ? [size, colour] : [colour, size],
      });
    }
  }
  return variants;
}

/** The same Shopify variants (ids kept) with another list of selected options each. */
function reshaped(p: CanonicalProduct, variants: CanonicalVariant[]): CanonicalProduct {
  return product({ legacyResourceId: p.legacyResourceId, variants });
}

/** The plan applied: the sku map rows the next plan reads (parents, groups and variants' parents included). */
function apply(plan: SyncPlan, before: readonly StoredRecord[] = []): StoredRecord[] {
  let next = 1;
  expect(plan.status).toBe('planned');
  return plan.records
    .filter((r) => r.action !== 'delete')
    .map((r) => ({
      kind: r.kind,
      shopifyVariantId: r.shopifyVariantId,
      supplierSku: r.supplierSku,
      skuId:
        r.action === 'create'
          ? `SK${String(next++).padStart(8, '0')}-${before.length}`
          : (r.skuId ?? `SK${String(next++).padStart(8, '0')}`),
      snapshot: r.snapshot,
      parentSupplierSku: r.parentSupplierSku,
      variantGroup: r.variantGroup ?? null,
    }));
}

const plan = (p: CanonicalProduct, stored: readonly StoredRecord[] = []) =>
  planSync({ shop: SHOP, product: p, mapping, stored, largeProducts: 'split' });

/** `kind supplierSku` of each call, in order. */
const lines = (p: SyncPlan) => p.calls.map((c) => `${c.kind} ${c.record.supplierSku}`);
const of = (kind: string, stored: readonly StoredRecord[]) => stored.map((r) => `${kind} ${r.supplierSku}`);
const parentsOf = (stored: readonly StoredRecord[]) => stored.filter((r) => r.shopifyVariantId === null);
const variantsOf = (stored: readonly StoredRecord[]) => stored.filter((r) => r.shopifyVariantId !== null);
const simpleOf = (p: CanonicalProduct) =>
  product({ legacyResourceId: p.legacyResourceId, variants: [variant({ barcode: '4006381333931' })] });

// Issue 40, item 5: any change of a product's shape ends with exactly the parents the new shape
// needs: the ones it no longer needs are deleted (after their variants: the catalog deletes
// variants independently of their parent), grounded in the product's own map rows.
describe('planSync: a change of shape ends with exactly the parents the new shape needs', () => {
  const base = (p: CanonicalProduct) => `demo:product:${p.legacyResourceId}`;

  it('split -> simple: every variant deleted, the other group parents deleted, the first parent kept and updated', () => {
    const p = product({ variants: matrix(3, 100) });
    const stored = apply(plan(p));
    const [first, second, third] = parentsOf(stored) as [StoredRecord, StoredRecord, StoredRecord];
    expect([first, second, third].map((r) => r.variantGroup)).toEqual(['101', '102', '103']);

    const simple = simpleOf(p);
    const next = plan(simple, stored);
    expect(lines(next)).toEqual([
      ...of('deleteVariant', variantsOf(stored)),
      `deleteProduct ${second.supplierSku}`,
      `deleteProduct ${third.supplierSku}`,
      `updateProduct ${first.supplierSku}`,
    ]);
    const deletes = next.calls.filter((c) => c.kind === 'deleteProduct');
    expect(deletes.map((c) => ('skuId' in c ? c.skuId : null))).toEqual([second.skuId, third.skuId]);
    // The kept record is the product's own simple record now: no group any more.
    const kept = next.records.find((r) => r.action !== 'delete') as (typeof next.records)[number];
    expect(kept).toMatchObject({ kind: 'simple', supplierSku: first.supplierSku, skuId: first.skuId });
    expect(kept.variantGroup).toBeUndefined();
    expect(next.records.filter((r) => r.action !== 'delete')).toHaveLength(1);
    // The parents no longer needed leave the map (a later shape may need them again).
    expect(
      next.records.filter((r) => r.kind === 'parent' && r.action === 'delete').map((r) => r.supplierSku),
    ).toEqual([second.supplierSku, third.supplierSku]);
    expect(next.records.filter((r) => r.removeRow).map((r) => r.supplierSku)).toEqual([
      second.supplierSku,
      third.supplierSku,
    ]);

    // Applied, the simple product plans nothing more, and gaining options keeps its record.
    const after = apply(next, stored);
    expect(plan(simple, after).calls).toEqual([]);
    const sized = product({
      legacyResourceId: p.legacyResourceId,
      variants: [variant({ options: { Size: 'Small' } }), variant({ options: { Size: 'Large' } })],
    });
    const regained = plan(sized, after);
    expect(lines(regained).filter((l) => !l.startsWith('createVariant'))).toEqual([
      `updateProduct ${first.supplierSku}`,
    ]);
    expect(regained.calls.filter((c) => c.kind === 'createVariant')).toHaveLength(2);
  });

  it('split -> simple keeps a live parent when the first group parent is still pending', () => {
    const p = product({ variants: matrix(3, 70) });
    const stored = apply(plan(p)).map((r) => (r.variantGroup === '101' ? { ...r, skuId: null } : r));
    const [first, second, third] = parentsOf(stored) as [StoredRecord, StoredRecord, StoredRecord];
    const next = plan(simpleOf(p), stored);
    expect(lines(next).filter((l) => !l.startsWith('deleteVariant'))).toEqual([
      `deleteProduct ${first.supplierSku}`,
      `deleteProduct ${third.supplierSku}`,
      `updateProduct ${second.supplierSku}`,
    ]);
    // The pending one is looked up by its supplierSku when deleted (it may exist).
    expect(next.calls.find((c) => c.kind === 'deleteProduct')).toMatchObject({ skuId: null });
    expect(next.calls.filter((c) => c.kind === 'deleteVariant')).toHaveLength(210);
  });

  it('simple -> split: the simple record deleted, one parent per group created with its variants', () => {
    const simple = product({ variants: [variant({ barcode: '4006381333931' })] });
    const stored = apply(plan(simple));
    const grown = reshaped(simple, matrix(3, 70));
    const next = plan(grown, stored);
    const b = base(simple);
    expect(lines(next).filter((l) => !l.startsWith('createVariant'))).toEqual([
      `deleteProduct ${b}`,
      `createProduct ${b}:101`,
      `createProduct ${b}:102`,
      `createProduct ${b}:103`,
    ]);
    expect(next.calls.filter((c) => c.kind === 'createVariant')).toHaveLength(210);
    expect(next.records.find((r) => r.supplierSku === b)).toMatchObject({
      action: 'delete',
      removeRow: true,
    });
  });

  it('split -> one parent with options: every group parent deleted after the variants, one parent created', () => {
    const p = product({ variants: matrix(3, 70) });
    const stored = apply(plan(p));
    const shrunk = reshaped(p, p.variants.slice(0, 140));
    const next = plan(shrunk, stored);
    const b = base(p);
    const kinds = next.calls.map((c) => c.kind);
    expect(kinds.filter((k) => k === 'deleteVariant')).toHaveLength(210);
    expect(lines(next).filter((l) => /Product /.test(l))).toEqual([
      `deleteProduct ${b}:101`,
      `deleteProduct ${b}:102`,
      `deleteProduct ${b}:103`,
      `createProduct ${b}`,
    ]);
    expect(kinds.indexOf('deleteProduct')).toBe(210);
    expect(kinds.filter((k) => k === 'createVariant')).toHaveLength(140);
    expect(next.records.filter((r) => r.kind === 'parent' && r.action !== 'delete')).toHaveLength(1);
    expect(next.records.filter((r) => r.removeRow)).toHaveLength(3);
  });

  it('regrouped by another first option: the old group parents deleted, the new ones created', () => {
    const p = product({ variants: matrix(3, 70) });
    const stored = apply(plan(p));
    const bySize = product({
      legacyResourceId: p.legacyResourceId,
      variants: p.variants.map((v) => ({ ...v, selectedOptions: [...v.selectedOptions].reverse() })),
    });
    const next = plan(bySize, stored);
    const b = base(p);
    expect(lines(next).filter((l) => l.startsWith('deleteProduct'))).toEqual([
      `deleteProduct ${b}:101`,
      `deleteProduct ${b}:102`,
      `deleteProduct ${b}:103`,
    ]);
    const created = next.calls.filter((c) => c.kind === 'createProduct').map((c) => c.record.supplierSku);
    expect(created).toEqual(Array.from({ length: 70 }, (_, i) => `${b}:${5001 + i}`));
    expect(next.calls.filter((c) => c.kind === 'deleteVariant')).toHaveLength(210);
    expect(next.calls.filter((c) => c.kind === 'createVariant')).toHaveLength(210);
    expect(next.calls.filter((c) => c.kind.startsWith('update'))).toEqual([]);
  });

  it('one group fewer: its variants and its parent deleted, nothing else sent', () => {
    const p = product({ variants: matrix(3, 101) });
    const stored = apply(plan(p));
    const fewer = reshaped(p, p.variants.slice(0, 202));
    const next = plan(fewer, stored);
    const gone = stored.filter((r) => r.parentSupplierSku === `${base(p)}:103`);
    expect(lines(next)).toEqual([...of('deleteVariant', gone), `deleteProduct ${base(p)}:103`]);
  });

  it('one group more: its parent created, then its variants, nothing else sent', () => {
    const wide = product({ variants: matrix(3, 101) });
    const p = reshaped(wide, wide.variants.slice(0, 202));
    const stored = apply(plan(p));
    const more = reshaped(p, wide.variants);
    const next = plan(more, stored);
    expect(lines(next)).toEqual([
      `createProduct ${base(p)}:103`,
      ...wide.variants.slice(202).map((v) => `createVariant demo:variant:${v.legacyResourceId}`),
    ]);
  });

  it('simple <-> options (200 or fewer): the one record kept, variants created then deleted, no product delete', () => {
    const simple = product({ variants: [variant({ barcode: '4006381333931' })] });
    const stored = apply(plan(simple));
    const b = base(simple);
    const sized = product({
      legacyResourceId: simple.legacyResourceId,
      variants: [variant({ options: { Size: 'Small' } }), variant({ options: { Size: 'Large' } })],
    });
    const gained = plan(sized, stored);
    expect(lines(gained)).toEqual([
      `updateProduct ${b}`,
      ...sized.variants.map((v) => `createVariant demo:variant:${v.legacyResourceId}`),
    ]);
    const withOptions = apply(gained, stored);
    const lost = plan(simple, withOptions);
    expect(lines(lost)).toEqual([...of('deleteVariant', variantsOf(withOptions)), `updateProduct ${b}`]);
    expect(lost.records.filter((r) => r.removeRow)).toEqual([]);
  });
});
