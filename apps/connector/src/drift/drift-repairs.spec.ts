import { describe, expect, it } from 'vitest';
import type { CatalogClients } from '../clients/catalog/catalog-clients.js';
import type { SyncEnqueuer } from '../intake/sync-enqueuer.js';
import type { SkuMapRepository } from '../product-sync/sku-map/sku-map.repository.js';
import type { SkuMapLinks } from '../product-sync/sku-map/sku-map-links.js';
import type { WrittenBackTarget, WrittenBackValues } from '../product-sync/written-back-values.js';
import type { ShopModes } from '../shops/shop-modes.js';
import { adoptRefusal, DriftRepairs } from './drift-repairs.js';
import type { DriftFinding } from './model/drift-finding.js';
import type { DriftFindingRow } from './store/drift-finding-row.entity.js';
import type { DriftReportsRepository } from './store/drift-reports.repository.js';

const orphan: DriftFinding = {
  kind: 'orphan',
  key: 'orphan:sku-9',
  productId: '42',
  skuId: 'sku-9',
  supplierSku: 'shop:product:42',
  field: null,
  expected: null,
  found: 'shop:product:42',
  repair: 'adopt',
};

function harness(linkAnswer: boolean, chosen: DriftFinding | DriftFinding[] = orphan, mode = 'live') {
  const linked: Array<{ productId: string; skuIds: string[] }> = [];
  const written: string[] = [];
  const enqueued: string[] = [];
  const repaired: Array<{ id: string; outcome: string }> = [];
  const rows = [chosen].flat().map((finding, i) => ({
    id: String(i + 1),
    shop: 'a.myshopify.com',
    kind: finding.kind,
    finding,
    repairedAt: null,
  }));
  const reports = {
    report: async (id: string) => (id === '7' ? { id: '7', shop: 'a.myshopify.com' } : null),
    findingsOf: async (_id: string, selection?: { kind?: string; ids?: string[] }) =>
      rows.filter(
        (r) =>
          selection === undefined ||
          (selection.kind !== undefined ? r.kind === selection.kind : selection.ids?.includes(r.id)),
      ) as unknown as DriftFindingRow[],
    markRepaired: async (id: string, outcome: string) => {
      repaired.push({ id, outcome });
    },
  } as unknown as DriftReportsRepository;
  const enqueuer = {
    enqueue: async (job: { productId: string }) => {
      enqueued.push(job.productId);
    },
  } as unknown as SyncEnqueuer;
  const links = {
    link: async (
      _shop: string,
      productId: string,
      records: Array<{ skuId: string; kind: string; shopifyVariantId: string | null }>,
    ) => {
      linked.push({
        productId,
        skuIds: records.map(
          (r) => `${r.kind} ${r.skuId}${r.shopifyVariantId ? ` ${r.shopifyVariantId}` : ''}`,
        ),
      });
      return linkAnswer;
    },
  } as unknown as SkuMapLinks;
  const writtenBack = {
    retract: async (_shop: string, target: WrittenBackTarget) => {
      written.push(`retract ${target.ownerId} ${target.attribute} ${target.target}`);
      return { outcome: 'retracted' };
    },
    accept: async (_shop: string, target: WrittenBackTarget) => {
      written.push(`accept ${target.ownerId} ${target.attribute} ${target.target}`);
      return { outcome: 'accepted' };
    },
  } as unknown as WrittenBackValues;
  const repairs = new DriftRepairs(
    reports,
    enqueuer,
    {} as CatalogClients,
    {} as SkuMapRepository,
    links,
    { modeOf: async () => mode } as unknown as ShopModes,
    writtenBack,
  );
  return { repairs, linked, enqueued, repaired, written };
}

describe('DriftRepairs adopt', () => {
  it('claims the orphan for its product, enqueues the sync and marks the finding repaired', async () => {
    const h = harness(true);
    const outcomes = await h.repairs.repair('7', { kind: 'orphan' });
    expect(outcomes).toEqual([{ findingId: '1', kind: 'orphan', repair: 'adopt', outcome: 'adopted' }]);
    expect(h.linked).toEqual([{ productId: '42', skuIds: ['simple sku-9'] }]);
    expect(h.enqueued).toEqual(['42']);
    expect(h.repaired).toEqual([{ id: '1', outcome: 'adopted' }]);
  });

  it('adopts a product with options whole: its orphan variant records too, each for the variant it names', async () => {
    const variant = (skuId: string, variantId: string): DriftFinding => ({
      ...orphan,
      key: `orphan:${skuId}`,
      skuId,
      supplierSku: `shop:variant:${variantId}`,
      found: `shop:variant:${variantId}`,
      parentSkuId: 'sku-9',
    });
    // The variant findings come first in the report: the parent's adopt still runs first.
    const h = harness(true, [variant('sku-10', '501'), variant('sku-11', '502'), orphan]);
    const outcomes = await h.repairs.repair('7', { kind: 'orphan' });
    expect(outcomes?.map((o) => [o.findingId, o.outcome])).toEqual([
      ['3', 'adopted'],
      ['1', 'adopted'],
      ['2', 'adopted'],
    ]);
    expect(h.linked).toEqual([
      { productId: '42', skuIds: ['parent sku-9', 'variant sku-10 501', 'variant sku-11 502'] },
    ]);
    expect(h.enqueued).toEqual(['42']);
    expect(h.repaired.map((r) => r.id).sort()).toEqual(['1', '2', '3']);
    // A variant record chosen without its parent is not adopted alone.
    const alone = harness(true, [variant('sku-10', '501'), orphan]);
    const refused = await alone.repairs.repair('7', { ids: ['1'] });
    expect(refused?.[0]).toMatchObject({
      outcome: 'not-adoptable',
      reason: expect.stringContaining('parent'),
    });
    expect(alone.linked).toEqual([]);
  });

  it('answers not-adoptable (finding left open, nothing enqueued) when the product is mapped already', async () => {
    const h = harness(false);
    const outcomes = await h.repairs.repair('7', { kind: 'orphan' });
    expect(outcomes?.[0]?.outcome).toBe('not-adoptable');
    expect(outcomes?.[0]?.reason).toContain('product 42');
    expect(h.enqueued).toEqual([]);
    expect(h.repaired).toEqual([]);
  });
});

describe('DriftRepairs retract and accept-merchant', () => {
  const owner = 'gid://shopify/Product/42';
  const withdrawn: DriftFinding = {
    ...orphan,
    kind: 'no-longer-approved',
    key: `no-longer-approved:${owner}:material:metafield:$app:catalog.material`,
    field: 'material',
    repair: 'retract',
    ownerId: owner,
    target: 'metafield:$app:catalog.material',
  };
  const edited: DriftFinding = {
    ...withdrawn,
    kind: 'written-back-differs',
    key: `written-back-differs:${owner}:material:metafield:$app:catalog.material`,
    repair: 'accept-merchant',
  };

  it('refuses, with the reason, to touch a written-back value in shadow mode (finding left open)', async () => {
    for (const finding of [withdrawn, edited]) {
      const h = harness(true, finding, 'shadow');
      const outcomes = await h.repairs.repair('7', { kind: finding.kind });
      expect(outcomes?.[0]).toMatchObject({
        outcome: 'refused',
        reason: expect.stringContaining('shadow mode'),
      });
      expect(h.written).toEqual([]);
      expect(h.repaired).toEqual([]);
    }
  });

  it('retracts through the write-back, and marks the finding repaired', async () => {
    const h = harness(true, withdrawn, 'live');
    const outcomes = await h.repairs.repair('7', { kind: 'no-longer-approved' });
    expect(outcomes?.[0]?.outcome).toBe('retracted');
    expect(h.written).toEqual([`retract ${owner} material metafield:$app:catalog.material`]);
    expect(h.enqueued).toEqual([]);
    expect(h.repaired).toEqual([{ id: '1', outcome: 'retracted' }]);
  });

  it("accepts the merchant's value through the write-back, then syncs the product", async () => {
    const h = harness(true, edited, 'live');
    const outcomes = await h.repairs.repair('7', { kind: 'written-back-differs' });
    expect(outcomes?.[0]?.outcome).toBe('accepted');
    expect(h.written).toEqual([`accept ${owner} material metafield:$app:catalog.material`]);
    expect(h.enqueued).toEqual(['42']);
    expect(h.repaired).toEqual([{ id: '1', outcome: 'accepted' }]);
  });

  it('answers not-supported for a finding stored without its target', async () => {
    const { ownerId: _o, target: _t, ...bare } = withdrawn;
    const h = harness(true, bare, 'live');
    const outcomes = await h.repairs.repair('7', { kind: 'no-longer-approved' });
    expect(outcomes?.[0]?.outcome).toBe('not-supported');
    expect(h.written).toEqual([]);
  });
});

describe('adoptRefusal', () => {
  it('adopts a product record naming a product of the shop', () => {
    expect(adoptRefusal(orphan)).toBeNull();
  });

  it('refuses an orphan naming no product, a variant record alone, and other kinds, saying why', () => {
    expect(adoptRefusal({ ...orphan, productId: null })).toContain('names no product');
    expect(adoptRefusal({ ...orphan, parentSkuId: 'sku-1' })).toContain('variant of sku-1');
    expect(adoptRefusal({ ...orphan, kind: 'duplicate' })).toContain('not an orphan');
  });
});
