import { readFileSync } from 'node:fs';
import type { AttributeEntry, AttributeType, ProductRecord } from '#lib/catalog-contract';
import {
  checkMapping,
  parseMappingFile,
  type ResolvedWriteBackEntry,
  type WriteBackTarget,
} from '../../src/mapping/index.js';
import type { PlannedWrite, WriteBackPlan } from '../../src/write-back/decide/write-back-plan.js';
import {
  type PushState,
  type ShopifyProductState,
  stateKey,
} from '../../src/write-back/decide/write-back-state.js';
import { demoCatalogConfiguration } from './demo-catalog.js';

/** Test support: a resolved write-back entry, as the boot check makes them. */
export function writeBackEntry(
  attribute: string,
  type: AttributeType,
  target: WriteBackTarget,
  level: 'product' | 'variant' = 'product',
  merchantEdits: 'keep' | 'overwrite' = 'keep',
): ResolvedWriteBackEntry {
  return {
    path: `writeBack.${level}.${attribute}`,
    level,
    attribute,
    target,
    merchantEdits,
    metafieldDefinition:
      target.kind === 'metafield' ? { name: attribute, description: null, storefront: 'NONE' } : null,
    definition: {
      key: attribute,
      displayName: attribute,
      type,
      class: 'CUSTOM',
      option: { disabled: false, ...(level === 'variant' ? { variantable: true as const } : {}) },
      categories: null,
      ai: { enabled: true },
      createdAt: 0,
    },
  };
}

/** The demo mapping's write-back entries (apps/connector/mappings/demo.yaml, demo account). */
export function demoWriteBack(): ResolvedWriteBackEntry[] {
  const text = readFileSync(new URL('../../mappings/demo.yaml', import.meta.url), 'utf8');
  return [...checkMapping(parseMappingFile(text), demoCatalogConfiguration()).writeBack];
}

/** A catalog record with the given attributes (blame as given; values as the API returns them). */
export function catalogRecord(
  skuId: string,
  attributes: AttributeEntry[],
  parentSkuId: string | null = null,
): ProductRecord {
  return {
    id: `id-${skuId}`,
    skuId,
    supplierSku: `sup-${skuId}`,
    parentSkuId,
    createdAt: 0,
    updatedAt: 0,
    attributeSummary: { enrichableTotal: 0, enrichableCompleted: 0, enrichableCompletionRate: 0 },
    dataEnrichment: { taskId: 'TK00000001', status: 'FINISHED', completedAt: 1 },
    attributes,
  };
}

/** Attribute entries: approved, pending (with sources), rejected, or entered by a person. */
export const approved = (key: string, value: string | string[]): AttributeEntry => ({
  key,
  value,
  blame: 'ENRICHMENT_APPROVED',
});
export const pending = (key: string, value: string | string[]): AttributeEntry => ({
  key,
  value,
  blame: 'ENRICHMENT',
  sources: [{ id: 'src_1', type: 'YOUR_DATA' }],
});
export const rejected = (key: string, value: string | string[]): AttributeEntry => ({
  key,
  value,
  blame: 'ENRICHMENT_REJECTED',
});
export const entered = (key: string, value: string | string[] | null): AttributeEntry => ({ key, value });

/** A Shopify product's write-back targets, empty unless given. */
export function shopifyState(
  productId: string,
  overrides: Partial<Omit<ShopifyProductState, 'productId'>> = {},
): ShopifyProductState {
  return {
    productId,
    title: 'Linen shirt',
    descriptionHtml: '<p>Linen.</p>',
    seo: { title: null, description: null },
    tags: [],
    metafields: [],
    variantIds: [],
    ...overrides,
  };
}

/**
 * What Shopify looks like after the planned writes land (test support: the sandbox does this for
 * real in the medium tests). Metafield digests are the value itself, tags keep one per case.
 */
export function applyWrites(
  state: ShopifyProductState,
  writes: readonly PlannedWrite[],
): ShopifyProductState {
  const next: ShopifyProductState = structuredClone(state);
  for (const { op } of writes) {
    switch (op.kind) {
      case 'field':
        if (op.field === 'seo.title') next.seo.title = op.value;
        else if (op.field === 'seo.description') next.seo.description = op.value;
        else if (op.field === 'title') next.title = op.value ?? '';
        else next.descriptionHtml = op.value ?? '';
        break;
      case 'tags':
        next.tags = next.tags.filter((t) => !op.remove.some((r) => r.toLowerCase() === t.toLowerCase()));
        for (const tag of op.add)
          if (!next.tags.some((t) => t.toLowerCase() === tag.toLowerCase())) next.tags.push(tag);
        break;
      case 'metafield-set': {
        const namespace = op.namespace.replace(
          /^\$app(?::(.+))?$/,
          (_, sub) => `app--1${sub ? `--${sub}` : ''}`,
        );
        next.metafields = next.metafields.filter((m) => !(m.ownerId === op.ownerId && m.key === op.key));
        next.metafields.push({
          ownerId: op.ownerId,
          namespace,
          key: op.key,
          type: op.type,
          value: op.value,
          compareDigest: `d:${op.value}`,
        });
        break;
      }
      case 'metafield-delete':
        next.metafields = next.metafields.filter((m) => !(m.ownerId === op.ownerId && m.key === op.key));
        break;
    }
  }
  return next;
}

/** The push states after a plan's writes succeeded and its settled states and conflicts were stored. */
export function storeOutcome(states: readonly PushState[], plan: WriteBackPlan): PushState[] {
  const byKey = new Map(states.map((s) => [stateKey(s.ownerId, s.attribute, s.target), s]));
  const put = (next: PushState) => byKey.set(stateKey(next.ownerId, next.attribute, next.target), next);
  for (const { next } of plan.settled) put(next);
  for (const { next } of plan.conflicts) put(next);
  for (const { next } of plan.writes) put({ ...next, intent: null });
  return [...byKey.values()];
}
