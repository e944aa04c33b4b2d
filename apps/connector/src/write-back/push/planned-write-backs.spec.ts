import { describe, expect, it } from 'vitest';
import type { PlannedWrite, WriteOp } from '../decide/write-back-plan.js';
import type { ShopifyProductState } from '../decide/write-back-state.js';
import { buildMutations } from '../shopify/build-mutations.js';
import { plannedWriteBacks } from './planned-write-backs.js';

const PRODUCT = 'gid://shopify/Product/1';
const VARIANT = 'gid://shopify/ProductVariant/22';

function write(op: WriteOp, key: string, ownerId = PRODUCT): PlannedWrite {
  return {
    ref: { productId: PRODUCT, ownerId, attribute: 'a', target: { kind: 'tags' }, key, path: 'p' },
    purpose: 'push',
    op,
    next: { ownerId, attribute: 'a', target: key, status: 'pushed', valueHash: 'h' },
  };
}

const shopify: ShopifyProductState = {
  productId: PRODUCT,
  title: 'Old title',
  descriptionHtml: '',
  seo: { title: null, description: null },
  tags: ['keep', 'Drop'],
  variantIds: [],
  metafields: [
    {
      ownerId: VARIANT,
      namespace: 'app--1--catalog',
      key: 'material',
      type: 'single_line_text_field',
      value: 'cotton',
      compareDigest: 'd1',
    },
  ],
};

describe('plannedWriteBacks', () => {
  it('turns each mutation into a planned write with its variables and each target before and after', () => {
    const writes = [
      write({ kind: 'field', field: 'title', value: 'New title' }, 'title'),
      write({ kind: 'field', field: 'seo.title', value: 'SEO' }, 'seo.title'),
      write({ kind: 'tags', add: ['new'], remove: ['drop'] }, 'tags'),
      write(
        {
          kind: 'metafield-set',
          ownerId: VARIANT,
          namespace: '$app:catalog',
          key: 'material',
          type: 'single_line_text_field',
          value: 'wool',
          compareDigest: 'd1',
        },
        'metafield:$app:catalog.material',
        VARIANT,
      ),
    ];
    const mutations = buildMutations(PRODUCT, writes);
    const planned = plannedWriteBacks(mutations, { writes, conflicts: [] }, shopify);
    expect(planned.map((p) => [p.kind, p.method, p.path])).toEqual([
      ['productUpdate', 'MUTATION', 'WriteBackProductUpdate'],
      ['tagsRemove', 'MUTATION', 'WriteBackTagsRemove'],
      ['tagsAdd', 'MUTATION', 'WriteBackTagsAdd'],
      ['metafieldsSet', 'MUTATION', 'WriteBackMetafieldsSet'],
    ]);
    expect(planned.map((p) => p.body)).toEqual(mutations.map((m) => m.variables));
    expect(planned[0]).toMatchObject({
      before: { title: 'Old title', 'seo.title': null },
      after: { title: 'New title', 'seo.title': 'SEO' },
    });
    expect(planned[2]).toMatchObject({
      before: { tags: ['keep', 'Drop'] },
      after: { tags: ['keep', 'new'] },
    });
    expect(planned[3]).toMatchObject({
      before: { 'metafield:$app:catalog.material@22': 'cotton' },
      after: { 'metafield:$app:catalog.material@22': 'wool' },
    });
  });

  it('adds one held row per conflict, sending nothing', () => {
    const conflict = write({ kind: 'field', field: 'title', value: 'x' }, 'title');
    const planned = plannedWriteBacks(
      [],
      { writes: [], conflicts: [{ ref: conflict.ref, next: conflict.next, detail: 'merchant edited' }] },
      shopify,
    );
    expect(planned).toEqual([
      {
        kind: 'conflict',
        method: 'HELD',
        path: 'title',
        supplierSku: null,
        body: { detail: 'merchant edited' },
        before: null,
        after: null,
      },
    ]);
  });
});
