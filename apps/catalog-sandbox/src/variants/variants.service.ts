import { Injectable } from '@nestjs/common';
import {
  CatalogErrorCode,
  CatalogLimits,
  type DeletionResponse,
  type ProductRecord,
  type VariantCreateResponse,
} from '#lib/catalog-contract';
import { Clock } from '#lib/clock';
import type { Account } from '../accounts/account.js';
import { CatalogApiError } from '../http/catalog-api.error.js';
import { PlatformIdGenerator } from '../ids/platform-id.generator.js';
import { applyAttributeChanges, planAttributeChanges } from '../products/attribute-writer.js';
import { newStoredRecord } from '../products/new-stored-record.js';
import { ProductView } from '../products/product-view.js';
import { duplicateSupplierSku, ProductsService } from '../products/products.service.js';
import { findBySupplierSku } from '../products/record-lookup.js';
import type { StoredProduct } from '../products/stored-product.js';
import type { ProductWrite, VariantCreate } from '../products/write-bodies.js';

/** Variants of a parent product: create, read, edit, delete. */
@Injectable()
export class VariantsService {
  constructor(
    private readonly ids: PlatformIdGenerator,
    private readonly clock: Clock,
    private readonly products: ProductsService,
  ) {}

  create(account: Account, body: VariantCreate): VariantCreateResponse {
    const parent = findBySupplierSku(account, body.parentSupplierSku);
    if (!parent) {
      throw new CatalogApiError(
        CatalogErrorCode.PARENT_NOT_FOUND,
        `No parent product with supplierSku "${body.parentSupplierSku}".`,
        {
          suggestion: 'Create the parent with POST /v1/products before its variants.',
        },
      );
    }
    if (parent.parentSkuId !== null) {
      throw CatalogApiError.validation(
        `"${body.parentSupplierSku}" is a variant; a variant cannot have variants.`,
        {
          field: 'parentSupplierSku',
        },
      );
    }
    if (parent.variantSkuIds.length >= CatalogLimits.VARIANTS_PER_PARENT) {
      throw new CatalogApiError(
        CatalogErrorCode.VARIANT_LIMIT_EXCEEDED,
        `The parent already has ${CatalogLimits.VARIANTS_PER_PARENT} variants.`,
        { current_count: parent.variantSkuIds.length },
      );
    }
    if (account.products.bySupplierSku(body.supplierSku).length > 0)
      throw duplicateSupplierSku(body.supplierSku);
    const changes = planAttributeChanges(account, body.attributes, 'variant-create');
    const variant = newStoredRecord(this.ids, {
      supplierSku: body.supplierSku,
      parentSkuId: parent.skuId,
      createdAt: this.clock.now(),
      seq: account.nextRecordSeq(),
    });
    applyAttributeChanges(variant, changes);
    account.products.insert(variant);
    parent.variantSkuIds.push(variant.skuId);
    const view = new ProductView(account);
    const record = view.record(variant);
    const submitted = new Set(changes.map((c) => c.def.key));
    return {
      ...record,
      parentSupplierSku: parent.supplierSku,
      attributes: record.attributes.filter((a) => submitted.has(a.key) && !a.inherited),
      inheritedAttributes: account.attributes
        .all()
        .filter((def) => view.isInherited(variant, def))
        .map((def) => view.effective(variant, def))
        .filter((e) => e !== undefined),
    };
  }

  get(account: Account, skuId: string): ProductRecord {
    return new ProductView(account).record(this.requireVariant(account, skuId));
  }

  patch(account: Account, skuId: string, write: ProductWrite): ProductRecord {
    return this.products.patch(account, this.requireVariant(account, skuId), write);
  }

  delete(account: Account, skuId: string): DeletionResponse {
    this.requireVariant(account, skuId);
    return this.products.remove(account, skuId);
  }

  private requireVariant(account: Account, skuId: string): StoredProduct {
    const record = account.products.get(skuId);
    if (!record || record.parentSkuId === null) throw CatalogApiError.variantNotFound(skuId);
    return record;
  }
}
