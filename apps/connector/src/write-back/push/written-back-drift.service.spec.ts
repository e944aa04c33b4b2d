import { describe, expect, it } from 'vitest';
import type { ProductRecord } from '#lib/catalog-contract';
import {
  approved,
  catalogRecord,
  demoWriteBack,
  rejected,
} from '../../../test/support/write-back-mapping.js';
import type { ResolvedWriteBackEntry } from '../../mapping/index.js';
import type { ShopMappings } from '../../mapping/shop-mappings.service.js';
import type { ProductLocks } from '../../product-sync/product-locks.service.js';
import type { SkuMapRepository } from '../../product-sync/sku-map/sku-map.repository.js';
import type { SkuMapRow } from '../../product-sync/sku-map/sku-map-row.entity.js';
import { WrittenBackValues } from '../../product-sync/written-back-values.service.js';
import type { PushState } from '../decide/write-back-state.js';
import type { MetafieldDefinitions } from '../definitions/metafield-definitions.service.js';
import type { GraphqlResponse } from '../shopify/admin-graphql.js';
import type { EnrichmentOutbox } from '../store/enrichment-outbox.repository.js';
import type { WriteBackStates } from '../store/write-back-states.repository.js';
import { valueHash } from '../values/value-hash.js';
import type { ShopGraphql } from './shop-graphql.service.js';
import { PushRetryError, type WriteBackPusher } from './write-back-pusher.service.js';
import { WrittenBackDrift } from './written-back-drift.service.js';

const SHOP = 'drift-unit.myshopify.com';
const PRODUCT_ID = '101';
const GID = `gid://shopify/Product/${PRODUCT_ID}`;
const VARIANT = 'gid://shopify/ProductVariant/201';
const SKU = 'SK00000101';

const fieldHash = (value: string | null) => valueHash({ kind: 'field', value });
const seoTitle = (status: PushState['status'], hash: string | null, restore?: string | null): PushState => ({
  ownerId: GID,
  attribute: 'seoTitle',
  target: 'seo.title',
  status,
  valueHash: hash,
  ...(restore !== undefined ? { restore: { value: restore } } : {}),
});

/** Shopify's product as the write-back read answers it (`null`: the product is gone). */
interface ShopifyProduct {
  seoTitle: string | null;
}

/** The write-back's drift comparison and repairs over fakes of its stores, Shopify and the pusher. */
function harness(options: {
  states: PushState[];
  shopify: ShopifyProduct | null;
  entries?: ResolvedWriteBackEntry[];
  pending?: boolean;
  pushLeaves?: PushState[];
  pushThrows?: Error;
}) {
  let states = options.states;
  const queries: string[] = [];
  const saved: PushState[][] = [];
  const pushes: string[] = [];
  const graphql = async (query: string): Promise<GraphqlResponse> => {
    const name = /query (\w+)/.exec(query)?.[1] ?? '?';
    queries.push(name);
    if (options.shopify === null) return { data: { product: null } };
    if (name === 'WriteBackVariants')
      return {
        data: {
          product: {
            id: GID,
            variants: {
              nodes: [{ id: VARIANT, metafields: { nodes: [] } }],
              pageInfo: { hasNextPage: false },
            },
          },
        },
      };
    return {
      data: {
        product: {
          id: GID,
          title: 'Tee',
          descriptionHtml: '',
          tags: [],
          seo: { title: options.shopify.seoTitle, description: null },
          metafields: { nodes: [] },
        },
      },
    };
  };
  const rows = [
    { shopifyProductId: PRODUCT_ID, shopifyVariantId: null, kind: 'simple', skuId: SKU, state: 'live' },
  ];
  const registry = new WrittenBackValues();
  const drift = new WrittenBackDrift(
    registry,
    { mapping: () => ({ writeBack: options.entries ?? demoWriteBack() }) } as unknown as ShopMappings,
    { stopped: () => new Map() } as unknown as MetafieldDefinitions,
    {
      pushedProducts: async () => (states.some((s) => s.status === 'pushed') ? [PRODUCT_ID] : []),
      forProduct: async () => states,
      save: async (_shop: string, _product: string, saving: { states: PushState[] }) => {
        saved.push(saving.states);
      },
    } as unknown as WriteBackStates,
    {
      pendingWork: async () => (options.pending ? { id: '1', records: null } : null),
    } as unknown as EnrichmentOutbox,
    { rowsOfProduct: async () => rows as SkuMapRow[] } as unknown as SkuMapRepository,
    {
      forShop: () => graphql,
      pacing: () => ({ sleep: async () => {}, throttleRetries: 0 }),
    } as unknown as ShopGraphql,
    {
      withLock: async (_key: unknown, work: () => Promise<unknown>) => work(),
    } as unknown as ProductLocks,
    {
      push: async (subject: { productId: string }) => {
        pushes.push(subject.productId);
        if (options.pushThrows) throw options.pushThrows;
        if (options.pushLeaves) states = options.pushLeaves;
      },
    } as unknown as WriteBackPusher,
  );
  drift.onModuleInit();
  return { drift, registry, queries, saved, pushes };
}

const records = (...attributes: Parameters<typeof catalogRecord>[1]): Map<string, ProductRecord> =>
  new Map([[SKU, catalogRecord(SKU, attributes)]]);
const target = { productId: PRODUCT_ID, ownerId: GID, attribute: 'seoTitle', target: 'seo.title' };

describe('WrittenBackDrift.compare', () => {
  it('reports a merchant edit of a pushed value (differs), with the catalog value and Shopify value, through the registry', async () => {
    const { registry, queries } = harness({
      states: [seoTitle('pushed', fieldHash('Approved SEO'))],
      shopify: { seoTitle: 'Merchant SEO' },
    });
    const found = await registry.compare(SHOP, records(approved('seoTitle', 'Approved SEO')));
    expect(found).toEqual([
      {
        productId: PRODUCT_ID,
        ownerId: GID,
        attribute: 'seoTitle',
        target: 'seo.title',
        skuId: SKU,
        disagreement: 'differs',
        expected: 'Approved SEO',
        found: 'Merchant SEO',
      },
    ]);
    // No pushed value on a variant: the product is read once, its variants not at all.
    expect(queries).toEqual(['WriteBackProduct']);
  });

  it('reports a value the catalog no longer approves (withdrawn) with what a retract restores', async () => {
    const { drift } = harness({
      states: [seoTitle('pushed', fieldHash('Approved SEO'), 'Merchant before')],
      shopify: { seoTitle: 'Approved SEO' },
    });
    const found = await drift.compare(SHOP, records(rejected('seoTitle', 'Approved SEO')));
    expect(found.map((f) => [f.disagreement, f.expected, f.found])).toEqual([
      ['withdrawn', 'Merchant before', 'Approved SEO'],
    ]);
  });

  it('leaves a withdrawn value out while the poll has push work pending for the product', async () => {
    const { drift } = harness({
      states: [seoTitle('pushed', fieldHash('Approved SEO'), null)],
      shopify: { seoTitle: 'Approved SEO' },
      pending: true,
    });
    expect(await drift.compare(SHOP, records(rejected('seoTitle', 'Approved SEO')))).toEqual([]);
  });

  it('finds nothing where Shopify holds the approved value the connector wrote', async () => {
    const { drift } = harness({
      states: [seoTitle('pushed', fieldHash('Approved SEO'))],
      shopify: { seoTitle: 'Approved SEO' },
    });
    expect(await drift.compare(SHOP, records(approved('seoTitle', 'Approved SEO')))).toEqual([]);
  });

  it('skips a product gone from Shopify (the report finds it by its own read)', async () => {
    const { drift } = harness({ states: [seoTitle('pushed', fieldHash('X'))], shopify: null });
    expect(await drift.compare(SHOP, records(approved('seoTitle', 'X')))).toEqual([]);
  });

  it('reads the variants when a pushed value is on one, and reports its edit', async () => {
    const variantState: PushState = {
      ownerId: VARIANT,
      attribute: 'variantTitle',
      target: 'metafield:$app:catalog.variant_title',
      status: 'pushed',
      valueHash: valueHash({ kind: 'metafield', type: 'single_line_text_field', value: 'Tee - S' }),
    };
    const { drift, queries } = harness({ states: [variantState], shopify: { seoTitle: null } });
    const found = await drift.compare(SHOP, records(approved('variantTitle', 'Tee - S')));
    expect(queries).toEqual(['WriteBackProduct', 'WriteBackVariants']);
    expect(found.map((f) => [f.disagreement, f.ownerId, f.skuId, f.found])).toEqual([
      ['differs', VARIANT, SKU, null],
    ]);
  });

  it('reads nothing when the mapping writes nothing back', async () => {
    const { drift, queries } = harness({ states: [seoTitle('pushed', 'h')], shopify: null, entries: [] });
    expect(await drift.compare(SHOP, new Map())).toEqual([]);
    expect(queries).toEqual([]);
  });
});

describe('WrittenBackDrift repairs', () => {
  it('retract pushes the product now and answers retracted when the value is gone', async () => {
    const { drift, pushes } = harness({
      states: [seoTitle('pushed', fieldHash('X'))],
      shopify: { seoTitle: 'X' },
      pushLeaves: [seoTitle('retracted', null)],
    });
    expect(await drift.retract(SHOP, target)).toEqual({ outcome: 'retracted' });
    expect(pushes).toEqual([PRODUCT_ID]);
  });

  it('retract fails with the reason when the catalog approves the value again or the push must retry', async () => {
    const stillPushed = harness({ states: [seoTitle('pushed', fieldHash('X'))], shopify: { seoTitle: 'X' } });
    expect((await stillPushed.drift.retract(SHOP, target)).outcome).toBe('failed');
    const retry = harness({
      states: [seoTitle('pushed', fieldHash('X'))],
      shopify: { seoTitle: 'X' },
      pushThrows: new PushRetryError('Shopify is throttling'),
    });
    expect(await retry.drift.retract(SHOP, target)).toEqual({
      outcome: 'failed',
      reason: 'Shopify is throttling',
    });
  });

  it('accept records the merchant edit: the target becomes merchant-owned', async () => {
    const { drift, saved } = harness({
      states: [seoTitle('pushed', fieldHash('Approved SEO'))],
      shopify: { seoTitle: 'Merchant SEO' },
    });
    expect(await drift.accept(SHOP, target)).toEqual({ outcome: 'accepted' });
    expect(saved).toHaveLength(1);
    expect(saved[0]?.find((s) => s.target === 'seo.title')).toMatchObject({
      status: 'merchant-owned',
      valueHash: fieldHash('Merchant SEO'),
    });
  });

  it('accept is already repaired when Shopify holds the connector value again, or nothing was pushed', async () => {
    const back = harness({
      states: [seoTitle('pushed', fieldHash('Approved SEO'))],
      shopify: { seoTitle: 'Approved SEO' },
    });
    expect((await back.drift.accept(SHOP, target)).outcome).toBe('already-repaired');
    expect(back.saved).toEqual([]);
    const retracted = harness({ states: [seoTitle('retracted', null)], shopify: { seoTitle: null } });
    expect((await retracted.drift.accept(SHOP, target)).outcome).toBe('already-repaired');
    const owned = harness({
      states: [seoTitle('merchant-owned', fieldHash('M'))],
      shopify: { seoTitle: 'M' },
    });
    expect(await owned.drift.accept(SHOP, target)).toEqual({ outcome: 'accepted' });
  });
});
