import { Injectable } from '@nestjs/common';
import { CatalogErrorCode, type DeletionResponse, type ProductRecord } from '#lib/catalog-contract';
import { Clock } from '#lib/clock';
import type { Account } from '../accounts/account.js';
import { REQUIRED_ON_CREATE } from '../attributes/default-attributes.js';
import { CatalogApiError } from '../http/catalog-api.error.js';
import { PlatformIdGenerator } from '../ids/platform-id.generator.js';
import { applyAttributeChanges, planAttributeChanges } from './attribute-writer.js';
import { newStoredRecord } from './new-stored-record.js';
import { ProductView } from './product-view.js';
import { findBySupplierSku, requireRecord } from './record-lookup.js';
import type { StoredProduct } from './stored-product.js';
import type { ProductWrite } from './write-bodies.js';

/** Products: create, read, partial edit (by supplierSku or skuId) and delete. */
@Injectable()
export class ProductsService {
  constructor(
    private readonly ids: PlatformIdGenerator,
    private readonly clock: Clock,
  ) {}

  create(account: Account, write: ProductWrite): ProductRecord {
    const supplierSku = write.supplierSku as string;
    for (const key of REQUIRED_ON_CREATE) {
      const given = write.attributes.find((a) => a.key === key);
      if (given === undefined || given.value === null || given.value === '') {
        throw new CatalogApiError(
          CatalogErrorCode.MISSING_REQUIRED_ATTRIBUTE,
          `Attribute "${key}" is required.`,
          {
            attribute_key: key,
            suggestion: 'A product needs at least "name" and "brand".',
          },
        );
      }
    }
    if (
      account.behaviour.duplicateSupplierSku === 'refuse' &&
      account.products.bySupplierSku(supplierSku).length > 0
    ) {
      throw duplicateSupplierSku(supplierSku);
    }
    const changes = planAttributeChanges(account, write.attributes, 'product');
    const product = newStoredRecord(this.ids, {
      supplierSku,
      parentSkuId: null,
      createdAt: this.clock.now(),
      seq: account.nextRecordSeq(),
    });
    applyAttributeChanges(product, changes);
    account.products.insert(product);
    return new ProductView(account).record(product);
  }

  get(account: Account, skuId: string): ProductRecord {
    return new ProductView(account).record(requireRecord(account, skuId));
  }

  patchBySupplierSku(account: Account, write: ProductWrite): ProductRecord {
    const supplierSku = write.supplierSku as string;
    const product = findBySupplierSku(account, supplierSku);
    if (!product) {
      throw new CatalogApiError(
        CatalogErrorCode.PRODUCT_NOT_FOUND,
        `No product with supplierSku "${supplierSku}".`,
        {
          suggestion: 'Create it with POST /v1/products first.',
        },
      );
    }
    return this.patch(account, product, { ...write, supplierSku: undefined });
  }

  patchBySkuId(account: Account, skuId: string, write: ProductWrite): ProductRecord {
    return this.patch(account, requireRecord(account, skuId), write);
  }

  delete(account: Account, skuId: string): DeletionResponse {
    const product = requireRecord(account, skuId);
    if (product.variantSkuIds.length > 0 && account.behaviour.parentDelete === 'refuse') {
      throw new CatalogApiError(CatalogErrorCode.CONFLICT, `Product "${skuId}" still has variants.`, {
        current_count: product.variantSkuIds.length,
        details: { variantSkuIds: [...product.variantSkuIds] },
        suggestion:
          'Delete its variants first (DELETE /v1/variants/{skuId}); variants are deleted independently.',
      });
    }
    for (const variantSkuId of [...product.variantSkuIds]) this.remove(account, variantSkuId);
    return this.remove(account, skuId);
  }

  /** Removes a record for good and detaches it from its parent. */
  remove(account: Account, skuId: string): DeletionResponse {
    const product = requireRecord(account, skuId);
    account.products.delete(skuId);
    const parent = product.parentSkuId === null ? undefined : account.products.get(product.parentSkuId);
    if (parent) parent.variantSkuIds = parent.variantSkuIds.filter((s) => s !== skuId);
    return { skuId, supplierSku: product.supplierSku, status: 'deleted', deletedAt: this.clock.now() };
  }

  /** Applies a partial edit. A different `supplierSku` in the body renames the record. */
  patch(account: Account, product: StoredProduct, write: ProductWrite): ProductRecord {
    const isVariant = product.parentSkuId !== null;
    const changes = planAttributeChanges(account, write.attributes, isVariant ? 'variant-edit' : 'product');
    for (const required of REQUIRED_ON_CREATE) {
      if (!isVariant && changes.some((c) => c.def.key === required && (c.value === null || c.value === ''))) {
        throw CatalogApiError.invalidValue(required, 'is required and cannot be cleared');
      }
    }
    const rename = write.supplierSku !== undefined && write.supplierSku !== product.supplierSku;
    const unique = isVariant || account.behaviour.duplicateSupplierSku === 'refuse';
    if (rename && unique && account.products.bySupplierSku(write.supplierSku as string).length > 0) {
      throw duplicateSupplierSku(write.supplierSku as string);
    }
    // Everything is validated: from here on the edit cannot fail half way.
    if (rename) {
      const previous = product.supplierSku;
      product.supplierSku = write.supplierSku as string;
      account.products.reindexSupplierSku(product, previous);
    }
    applyAttributeChanges(product, changes);
    product.updatedAt = Math.max(this.clock.now(), product.updatedAt + 1);
    return new ProductView(account).record(product);
  }
}

export function duplicateSupplierSku(supplierSku: string): CatalogApiError {
  return new CatalogApiError(
    CatalogErrorCode.DUPLICATE_SUPPLIER_SKU,
    `supplierSku "${supplierSku}" is already used.`,
    {
      details: { supplierSku },
      suggestion: 'Search by supplierSku to find the existing record.',
    },
  );
}
