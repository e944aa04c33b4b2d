import { type AttributeInput, CatalogErrorCode } from '#lib/catalog-contract';
import type { Account } from '../accounts/account.js';
import type { AttributeDef } from '../attributes/attribute-definition.js';
import { validateAttributeValue } from '../attributes/attribute-value.validator.js';
import { CatalogApiError } from '../http/catalog-api.error.js';
import type { StoredProduct } from './stored-product.js';

export interface AttributeChange {
  def: AttributeDef;
  /** null clears. */
  value: string | string[] | null;
}

/**
 * Turns request attributes into validated changes. Every key must exist and not be a system
 * field. On variants, attributes without the variant-specific flag are refused on create
 * (`invalid_variant_attribute`) and dropped on edit (the spec: "updates to inherited attributes
 * on a variant have no effect").
 */
export function planAttributeChanges(
  account: Account,
  inputs: AttributeInput[],
  target: 'product' | 'variant-create' | 'variant-edit',
): AttributeChange[] {
  const changes: AttributeChange[] = [];
  for (const input of inputs) {
    const def = account.attributes.get(input.key);
    if (!def) throw CatalogApiError.unknownAttribute(input.key);
    if (def.system) {
      throw CatalogApiError.invalidValue(
        def.key,
        `is a top-level field; send it as "supplierSku" beside "attributes"`,
      );
    }
    if (target !== 'product' && !def.variantable) {
      if (target === 'variant-edit') continue;
      throw new CatalogApiError(
        CatalogErrorCode.INVALID_VARIANT_ATTRIBUTE,
        `Attribute "${def.key}" is not variant-specific and cannot be set on a variant.`,
        { attribute_key: def.key, suggestion: 'Set it on the parent product; variants inherit it.' },
      );
    }
    changes.push({ def, value: validateAttributeValue(def, input.value, account.taxonomy) });
  }
  return changes;
}

/**
 * Applies changes to a record. A written value is the user's: it carries no blame or sources.
 * `null` removes the value. Writing `media` on a variant gives it its own gallery.
 */
export function applyAttributeChanges(product: StoredProduct, changes: AttributeChange[]): void {
  for (const { def, value } of changes) {
    if (value === null) product.attributes.delete(def.key);
    else product.attributes.set(def.key, { value });
    if (def.key === 'media' && product.parentSkuId !== null) product.ownMedia = true;
  }
}
