import { CatalogErrorCode } from '#lib/catalog-contract';
import type { Account } from '../accounts/account.js';
import { CatalogApiError } from '../http/catalog-api.error.js';
import type { StoredProduct } from './stored-product.js';

/**
 * Finds the one record a `supplierSku` names. Several records may share one (the catalog does
 * not deduplicate); the account's `ambiguousSupplierSku` switch decides: refuse (409, listing
 * the skuIds), or take the newest or oldest.
 */
export function findBySupplierSku(account: Account, supplierSku: string): StoredProduct | undefined {
  const matches = account.products.bySupplierSku(supplierSku);
  if (matches.length <= 1) return matches[0];
  switch (account.behaviour.ambiguousSupplierSku) {
    case 'newest':
      return matches[matches.length - 1];
    case 'oldest':
      return matches[0];
    case 'refuse':
      throw new CatalogApiError(
        CatalogErrorCode.AMBIGUOUS_SUPPLIER_SKU,
        `${matches.length} records share supplierSku "${supplierSku}".`,
        {
          details: { supplierSku, skuIds: matches.map((m) => m.skuId) },
          suggestion: 'Address the record by skuId (PATCH /v1/products/{skuId}), or delete the duplicates.',
        },
      );
  }
}

export function requireRecord(account: Account, skuId: string): StoredProduct {
  const product = account.products.get(skuId);
  if (!product) throw CatalogApiError.productNotFound(skuId);
  return product;
}
