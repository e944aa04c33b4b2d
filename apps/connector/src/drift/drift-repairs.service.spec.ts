import { describe, expect, it } from 'vitest';
import { CatalogClientError } from '#lib/catalog-client';
import type { ProductRecord } from '#lib/catalog-contract';
import type { CatalogClients } from '../clients/catalog/catalog-clients.service.js';
import type { SyncEnqueuer } from '../intake/sync-enqueuer.service.js';
import type { ShopMappings } from '../mapping/shop-mappings.service.js';
import type { SkuMapRepository } from '../product-sync/sku-map/sku-map.repository.js';
import type { SkuMapLinks } from '../product-sync/sku-map/sku-map-links.repository.js';
import type { WrittenBackTarget, WrittenBackValues } from '../product-sync/written-back-values.service.js';
import type { ShopModes } from '../shops/shop-modes.service.js';
import type { Shops } from '../shops/shops.js';
import { DriftDeleteCheck } from './drift-delete-check.service.js';
import { DriftOwnership } from './drift-ownership.service.js';
import { adoptRefusal, DriftRepairs } from './drift-repairs.service.js';
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

/** The catalog and the whole sku map as a delete's re-check sees them when it runs. */
interface World {
  records: ProductRecord[];
  claimedSkuIds: string[];
  claimedSupplierSkus: string[];
  sharedPrefix: boolean;
}

const noWorld: World = { records: [], claimedSkuIds: [], claimedSupplierSkus: [], sharedPrefix: false };

function catalogRecord(skuId: string, supplierSku: string, over: Partial<ProductRecord> = {}): ProductRecord {
  return {
    id: `id-${skuId}`,
    skuId,
    supplierSku,
    parentSkuId: null,
    createdAt: 1,
    updatedAt: 1,
    attributeSummary: { enrichableTotal: 0, enrichableCompleted: 0, enrichableCompletionRate: 0 },
    attributes: [],
    ...over,
  };
}

function harness(
  linkAnswer: boolean,
  chosen: DriftFinding | DriftFinding[] = orphan,
  mode = 'live',
  world: World = noWorld,
) {
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
    claimedRecords: async (wanted: { skuIds: string[] }) => ({
      skuIds: new Set(world.claimedSkuIds.filter((id) => wanted.skuIds.includes(id))),
      supplierSkus: new Set<string>(),
    }),
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
  const deleted: string[] = [];
  const find = async (skuId: string) => {
    const record = world.records.find((r) => r.skuId === skuId);
    if (!record) {
      throw new CatalogClientError({
        message: 'gone',
        errorCode: 404,
        code: 'not_found',
        status: 404,
        retryable: false,
        method: 'GET',
        path: `/v1/products/${skuId}`,
      });
    }
    return record;
  };
  const client = {
    getProduct: find,
    getVariant: find,
    findBySupplierSku: async (supplierSku: string) =>
      world.records.filter((r) => r.supplierSku === supplierSku),
    deleteProduct: async (skuId: string) => {
      deleted.push(`product ${skuId}`);
    },
    deleteVariant: async (skuId: string) => {
      deleted.push(`variant ${skuId}`);
    },
  };
  const catalogs = { forShop: () => ({ client }) } as unknown as CatalogClients;
  const claims = {
    claimedRecords: async (wanted: { skuIds: string[]; supplierSkus: string[] }) => ({
      skuIds: new Set(world.claimedSkuIds.filter((id) => wanted.skuIds.includes(id))),
      supplierSkus: new Set(world.claimedSupplierSkus.filter((id) => wanted.supplierSkus.includes(id))),
    }),
  } as unknown as SkuMapLinks;
  const modes = { modeOf: async () => mode } as unknown as ShopModes;
  const ownership = new DriftOwnership(
    { mapping: () => null } as unknown as ShopMappings,
    { refresh: async () => undefined, all: [] } as unknown as Shops,
    { prefixUsedByOthers: async () => world.sharedPrefix } as unknown as SkuMapLinks,
  );
  const repairs = new DriftRepairs(
    reports,
    enqueuer,
    catalogs,
    { markGone: async () => undefined } as unknown as SkuMapRepository,
    links,
    modes,
    writtenBack,
    new DriftDeleteCheck(catalogs, claims, modes, ownership),
  );
  return { repairs, linked, enqueued, repaired, written, deleted };
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

  it("answers not-adoptable when another shop's row claims the record since the report", async () => {
    const h = harness(true, orphan, 'live', { ...noWorld, claimedSkuIds: ['sku-9'] });
    const outcomes = await h.repairs.repair('7', { kind: 'orphan' });
    expect(outcomes?.[0]).toMatchObject({
      outcome: 'not-adoptable',
      reason: 'record sku-9 is claimed by the sku map now',
    });
    expect(h.linked).toEqual([]);
    expect(h.enqueued).toEqual([]);
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

describe('DriftRepairs delete-record re-checks its finding when it runs', () => {
  // The shop is a.myshopify.com: its derived prefix is `a`.
  const leftover: DriftFinding = {
    kind: 'orphan',
    key: 'orphan:sku-5',
    productId: null,
    skuId: 'sku-5',
    supplierSku: 'a:product:5',
    field: null,
    expected: null,
    found: 'a:product:5',
    repair: 'delete-record',
  };
  const duplicate: DriftFinding = {
    ...leftover,
    kind: 'duplicate',
    key: 'duplicate:sku-5',
    supplierSku: 'a:product:1',
    found: 'a:product:1',
  };
  const world = (over: Partial<World>): World => ({
    ...noWorld,
    records: [catalogRecord('sku-5', 'a:product:5')],
    ...over,
  });

  it("deletes the connector's own leftover when the finding still holds", async () => {
    const h = harness(true, leftover, 'live', world({}));
    const outcomes = await h.repairs.repair('7', { kind: 'orphan' });
    expect(outcomes?.[0]?.outcome).toBe('deleted');
    expect(h.deleted).toEqual(['product sku-5']);
    expect(h.repaired).toEqual([{ id: '1', outcome: 'deleted' }]);
  });

  it.each([
    ['the record is gone', leftover, world({ records: [] }), 'no longer exists'],
    [
      'the record is claimed now (a sync linked it)',
      leftover,
      world({ claimedSkuIds: ['sku-5'] }),
      'claimed by the sku map',
    ],
    [
      'a create of its supplierSku is in progress',
      leftover,
      world({ claimedSupplierSkus: ['a:product:5'] }),
      'a create in progress',
    ],
    [
      "an old report's orphan with a foreign supplierSku",
      { ...leftover, supplierSku: 'MUG-RED' },
      world({ records: [catalogRecord('sku-5', 'MUG-RED')] }),
      'not one the connector derives',
    ],
    ['another served shop uses the prefix', leftover, world({ sharedPrefix: true }), 'under the prefix a'],
    [
      'a duplicate whose claimed original no longer holds the supplierSku',
      duplicate,
      world({
        records: [catalogRecord('sku-5', 'a:product:1'), catalogRecord('sku-1', 'a:product:2')],
        claimedSkuIds: ['sku-1'],
      }),
      'may be the only one left',
    ],
  ])(
    'refuses, with the reason, when %s: nothing deleted, finding left open',
    async (_why, finding, w, reason) => {
      const h = harness(true, finding, 'live', w);
      const outcomes = await h.repairs.repair('7', { kind: finding.kind });
      expect(outcomes?.[0]).toMatchObject({ outcome: 'refused', reason: expect.stringContaining(reason) });
      expect(h.deleted).toEqual([]);
      expect(h.repaired).toEqual([]);
    },
  );

  it('deletes a duplicate while a claimed record holds its supplierSku', async () => {
    const w = world({
      records: [catalogRecord('sku-5', 'a:product:1'), catalogRecord('sku-1', 'a:product:1')],
      claimedSkuIds: ['sku-1'],
    });
    const h = harness(true, duplicate, 'live', w);
    expect((await h.repairs.repair('7', { kind: 'duplicate' }))?.[0]?.outcome).toBe('deleted');
    expect(h.deleted).toEqual(['product sku-5']);
  });

  it('refuses every delete in shadow mode', async () => {
    const h = harness(true, [leftover, duplicate], 'shadow', world({}));
    const outcomes = await h.repairs.repair('7', { ids: ['1', '2'] });
    expect(outcomes?.map((o) => [o.outcome, o.reason])).toEqual([
      ['refused', 'the shop is in shadow mode: nothing is deleted from the catalog'],
      ['refused', 'the shop is in shadow mode: nothing is deleted from the catalog'],
    ]);
    expect(h.deleted).toEqual([]);
  });

  it('deletes a record holding approved enrichment only when confirmLoss names it, saying what is lost', async () => {
    const enriched = catalogRecord('sku-5', 'a:product:5', {
      attributes: [
        { key: 'aiDescription', value: 'A mug', blame: 'ENRICHMENT_APPROVED' },
        { key: 'name', value: 'Mug' },
      ],
    });
    const h = harness(true, leftover, 'live', world({ records: [enriched] }));
    const first = await h.repairs.repair('7', { kind: 'orphan' }, { confirmLoss: ['sku-other'] });
    expect(first?.[0]).toMatchObject({
      outcome: 'needs-confirmation',
      loses: ['aiDescription'],
      reason: expect.stringContaining('approved enrichment (aiDescription)'),
    });
    expect(h.deleted).toEqual([]);
    const confirmed = await h.repairs.repair('7', { kind: 'orphan' }, { confirmLoss: ['sku-5'] });
    expect(confirmed?.[0]?.outcome).toBe('deleted');
    expect(h.deleted).toEqual(['product sku-5']);
  });

  it('refuses an orphan to review, whoever asks, saying the owner cannot be proven', async () => {
    const review = { ...leftover, supplierSku: 'MUG-RED', repair: 'review' as const };
    const h = harness(true, review, 'live', world({ records: [catalogRecord('sku-5', 'MUG-RED')] }));
    const outcomes = await h.repairs.repair('7', { kind: 'orphan' });
    expect(outcomes?.[0]).toMatchObject({
      outcome: 'refused',
      reason: expect.stringContaining('cannot prove'),
    });
    expect(h.deleted).toEqual([]);
  });
});

describe('DriftRepairs preview', () => {
  it("says, before it runs, that a gone record comes back under a new skuId without its enrichment, and Shopify's values stay", async () => {
    const gone: DriftFinding = {
      ...orphan,
      kind: 'record-gone',
      key: 'record-gone:sku-9',
      repair: 'resync',
    };
    const h = harness(true, gone);
    const outcomes = await h.repairs.repair('7', { kind: 'record-gone' }, { preview: true });
    expect(outcomes?.[0]).toMatchObject({ outcome: 'preview' });
    expect(outcomes?.[0]?.effect).toMatch(/new skuId.*enrichment of sku-9 is lost.*Shopify.*stay/);
    expect(h.enqueued).toEqual([]);
    expect(h.repaired).toEqual([]);
    // Run for real, the answer says it again; a refused delete says nothing of what it would do.
    const ran = await h.repairs.repair('7', { kind: 'record-gone' });
    expect(ran?.[0]).toMatchObject({ outcome: 'enqueued', effect: expect.stringContaining('new skuId') });
    const refused = await harness(true, { ...gone, kind: 'orphan', repair: 'review' }).repairs.repair('7', {
      kind: 'orphan',
    });
    expect(refused?.[0]).not.toHaveProperty('effect');
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
