import type { PlatformIdGenerator } from '../ids/platform-id.generator.js';
import type { StoredAttribute, StoredProduct } from './stored-product.js';

export interface NewRecordFields {
  supplierSku: string;
  parentSkuId: string | null;
  createdAt: number;
  /** Defaults to createdAt. */
  updatedAt?: number;
  seq: number;
  attributes?: Map<string, StoredAttribute>;
  ownMedia?: boolean;
}

/** A new product or variant record with freshly issued `id` and `skuId` (not yet stored). */
export function newStoredRecord(ids: PlatformIdGenerator, fields: NewRecordFields): StoredProduct {
  return {
    id: ids.nextInternalId(),
    skuId: ids.next('SK'),
    supplierSku: fields.supplierSku,
    parentSkuId: fields.parentSkuId,
    createdAt: fields.createdAt,
    updatedAt: fields.updatedAt ?? fields.createdAt,
    seq: fields.seq,
    attributes: fields.attributes ?? new Map(),
    ownMedia: fields.ownMedia ?? false,
    variantSkuIds: [],
  };
}
