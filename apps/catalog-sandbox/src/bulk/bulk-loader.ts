import { Injectable } from '@nestjs/common';
import { CatalogErrorCode, CatalogLimits } from '#lib/catalog-contract';
import { Clock } from '#lib/clock';
import type { Account } from '../accounts/account.js';
import { validateAttributeValue } from '../attributes/attribute-value.validator.js';
import { REQUIRED_ON_CREATE } from '../attributes/default-attributes.js';
import { CatalogApiError } from '../http/catalog-api.error.js';
import { PlatformIdGenerator } from '../ids/platform-id.generator.js';
import { newStoredRecord } from '../products/new-stored-record.js';
import { duplicateSupplierSku } from '../products/products.service.js';
import { findBySupplierSku } from '../products/record-lookup.js';
import type { StoredAttribute, StoredProduct } from '../products/stored-product.js';
import type { BulkItem } from './bulk-body.js';

/** A record checked and ready to insert, with where its parent is. */
interface Planned {
  item: BulkItem;
  attributes: Map<string, StoredAttribute>;
  createdAt: number;
  updatedAt: number;
  /** Index of the parent in the batch, or the parent record already stored. */
  parent: number | StoredProduct | null;
}

/**
 * Loads bulk fixtures straight into an account's store: many products and variants at once,
 * with blames, sources, enrichment states and timestamps the API cannot set. Everything is
 * checked first (the /v1 rules: keys, value validation, name and brand, variant-specific keys,
 * parents, the 200-variant limit, supplierSku uniqueness), then everything is inserted: a bad
 * record refuses the whole batch, naming its index. Parents are looked up in the batch first,
 * then among stored records.
 */
@Injectable()
export class BulkLoader {
  constructor(
    private readonly ids: PlatformIdGenerator,
    private readonly clock: Clock,
  ) {}

  load(account: Account, items: BulkItem[]): { created: number; skuIds: string[] } {
    const now = this.clock.now();
    const batchBySupplier = new Map<string, number[]>();
    items.forEach((item, i) => {
      const list = batchBySupplier.get(item.supplierSku);
      if (list) list.push(i);
      else batchBySupplier.set(item.supplierSku, [i]);
    });
    const variantsPerParent = new Map<number | StoredProduct, number>();
    const planned = items.map((item, index) => {
      try {
        const plan = this.plan(account, item, now, batchBySupplier, items);
        if (plan.parent !== null) {
          const count = (variantsPerParent.get(plan.parent) ?? 0) + 1;
          variantsPerParent.set(plan.parent, count);
          const existing = typeof plan.parent === 'number' ? 0 : plan.parent.variantSkuIds.length;
          if (existing + count > CatalogLimits.VARIANTS_PER_PARENT) {
            throw new CatalogApiError(
              CatalogErrorCode.VARIANT_LIMIT_EXCEEDED,
              `Parent "${item.parentSupplierSku}" would have more than ${CatalogLimits.VARIANTS_PER_PARENT} variants.`,
              { current_count: existing + count - 1 },
            );
          }
        }
        return plan;
      } catch (error) {
        throw atIndex(error, index, item.supplierSku);
      }
    });
    return { created: items.length, skuIds: this.insert(account, planned) };
  }

  private plan(
    account: Account,
    item: BulkItem,
    now: number,
    batchBySupplier: Map<string, number[]>,
    items: BulkItem[],
  ): Planned {
    const isVariant = item.parentSupplierSku !== undefined;
    const attributes = new Map<string, StoredAttribute>();
    for (const input of item.attributes) {
      const def = account.attributes.get(input.key);
      if (!def) throw CatalogApiError.unknownAttribute(input.key);
      if (def.system) throw CatalogApiError.invalidValue(def.key, 'is a top-level field; use "supplierSku"');
      if (attributes.has(def.key)) throw CatalogApiError.validation(`Attribute "${def.key}" is given twice.`);
      if (isVariant && !def.variantable) {
        throw new CatalogApiError(
          CatalogErrorCode.INVALID_VARIANT_ATTRIBUTE,
          `Attribute "${def.key}" is not variant-specific and cannot be set on a variant.`,
          { attribute_key: def.key },
        );
      }
      const value = validateAttributeValue(def, input.value, account.taxonomy);
      if (value === null) continue;
      const stored: StoredAttribute = { value };
      if (input.blame) stored.blame = input.blame;
      if (input.sources) stored.sources = input.sources;
      attributes.set(def.key, stored);
    }
    if (!isVariant) {
      for (const key of REQUIRED_ON_CREATE) {
        if (!attributes.has(key) || attributes.get(key)?.value === '') {
          throw new CatalogApiError(
            CatalogErrorCode.MISSING_REQUIRED_ATTRIBUTE,
            `Attribute "${key}" is required.`,
            {
              attribute_key: key,
            },
          );
        }
      }
    }
    const createdAt = item.createdAt ?? now;
    const updatedAt = item.updatedAt ?? createdAt;
    if (updatedAt < createdAt)
      throw CatalogApiError.validation('"updatedAt" must not be before "createdAt".');
    const uniqueSku = isVariant || account.behaviour.duplicateSupplierSku === 'refuse';
    const sameInBatch = batchBySupplier.get(item.supplierSku)?.length ?? 0;
    if (uniqueSku && (sameInBatch > 1 || account.products.bySupplierSku(item.supplierSku).length > 0)) {
      throw duplicateSupplierSku(item.supplierSku);
    }
    const parent = isVariant
      ? this.resolveParent(account, item.parentSupplierSku as string, batchBySupplier, items)
      : null;
    return { item, attributes, createdAt, updatedAt, parent };
  }

  private resolveParent(
    account: Account,
    parentSupplierSku: string,
    batchBySupplier: Map<string, number[]>,
    items: BulkItem[],
  ): number | StoredProduct {
    const inBatch = (batchBySupplier.get(parentSupplierSku) ?? []).filter(
      (i) => items[i]?.parentSupplierSku === undefined,
    );
    if (inBatch.length > 1) {
      throw new CatalogApiError(
        CatalogErrorCode.AMBIGUOUS_SUPPLIER_SKU,
        `${inBatch.length} records of the batch share supplierSku "${parentSupplierSku}".`,
        { details: { supplierSku: parentSupplierSku, indexes: inBatch } },
      );
    }
    if (inBatch.length === 1) return inBatch[0] as number;
    const stored = findBySupplierSku(account, parentSupplierSku);
    if (!stored) {
      throw new CatalogApiError(
        CatalogErrorCode.PARENT_NOT_FOUND,
        `No parent product with supplierSku "${parentSupplierSku}" in the batch or the account.`,
      );
    }
    if (stored.parentSkuId !== null) {
      throw CatalogApiError.validation(
        `"${parentSupplierSku}" is a variant; a variant cannot have variants.`,
      );
    }
    return stored;
  }

  /** Inserts in (createdAt, request order), so the store appends instead of splicing. */
  private insert(account: Account, planned: Planned[]): string[] {
    const records: StoredProduct[] = planned.map(({ item, attributes, createdAt, updatedAt }) => {
      const record = newStoredRecord(this.ids, {
        supplierSku: item.supplierSku,
        parentSkuId: null,
        createdAt,
        updatedAt,
        seq: 0,
        attributes,
        ownMedia: item.parentSupplierSku !== undefined && attributes.has('media'),
      });
      if (item.dataEnrichment) {
        const { status, taskId, completedAt } = item.dataEnrichment;
        record.dataEnrichment = { taskId: taskId ?? this.ids.next('TK'), status };
        if (completedAt !== undefined) record.dataEnrichment.completedAt = completedAt;
      }
      return record;
    });
    planned.forEach(({ parent }, i) => {
      if (parent === null) return;
      const parentRecord = typeof parent === 'number' ? (records[parent] as StoredProduct) : parent;
      const record = records[i] as StoredProduct;
      record.parentSkuId = parentRecord.skuId;
      parentRecord.variantSkuIds.push(record.skuId);
    });
    const order = records
      .map((_, i) => i)
      .sort(
        (a, b) => (records[a] as StoredProduct).createdAt - (records[b] as StoredProduct).createdAt || a - b,
      );
    for (const i of order) {
      const record = records[i] as StoredProduct;
      record.seq = account.nextRecordSeq();
      account.products.insert(record);
    }
    return records.map((r) => r.skuId);
  }
}

function atIndex(error: unknown, index: number, supplierSku: string): unknown {
  if (!(error instanceof CatalogApiError)) return error;
  const extras = error.extras;
  return new CatalogApiError(error.code, `products[${index}] ("${supplierSku}"): ${error.message}`, {
    ...extras,
    details: { ...extras.details, index, supplierSku },
  });
}
