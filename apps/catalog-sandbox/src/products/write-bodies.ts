import type { AttributeInput } from '#lib/catalog-contract';
import { CatalogApiError } from '../http/catalog-api.error.js';

const SUPPLIER_SKU_MAX = 255;
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface ProductWrite {
  supplierSku: string | undefined;
  attributes: AttributeInput[];
}

/** Reads `{product: {supplierSku, attributes}}`; throws `validation_error` naming the field. */
export function parseProductWrite(body: unknown, supplierSku: 'required' | 'optional'): ProductWrite {
  if (!isObj(body) || !isObj(body.product)) {
    throw CatalogApiError.validation(
      'The body must be {"product": {"supplierSku": ..., "attributes": [...]}}.',
      {
        field: 'product',
      },
    );
  }
  const product = body.product;
  const sku = parseSupplierSku(product.supplierSku, 'product.supplierSku', supplierSku === 'required');
  return { supplierSku: sku, attributes: parseAttributes(product.attributes, 'product.attributes') };
}

export interface VariantCreate {
  parentSupplierSku: string;
  supplierSku: string;
  attributes: AttributeInput[];
}

/** Reads the body of POST /v1/variants (no `product` wrapper). */
export function parseVariantCreate(body: unknown): VariantCreate {
  if (!isObj(body)) throw CatalogApiError.validation('The body must be a JSON object.');
  return {
    parentSupplierSku: parseSupplierSku(body.parentSupplierSku, 'parentSupplierSku', true) as string,
    supplierSku: parseSupplierSku(body.supplierSku, 'supplierSku', true) as string,
    attributes: parseAttributes(body.attributes ?? [], 'attributes'),
  };
}

function parseSupplierSku(value: unknown, field: string, required: boolean): string | undefined {
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || value.trim() === '' || value.length > SUPPLIER_SKU_MAX) {
    throw CatalogApiError.validation(
      `"${field}" must be a non-empty string of at most ${SUPPLIER_SKU_MAX} characters.`,
      {
        field,
      },
    );
  }
  return value;
}

export function parseAttributes(value: unknown, field: string): AttributeInput[] {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    throw CatalogApiError.validation(`"${field}" must be an array of {key, value}.`, { field });
  const seen = new Set<string>();
  return value.map((item, i) => {
    if (!isObj(item) || typeof item.key !== 'string' || !('value' in item)) {
      throw CatalogApiError.validation(`"${field}[${i}]" must be an object {key, value}.`, {
        field: `${field}[${i}]`,
      });
    }
    if (seen.has(item.key)) {
      throw CatalogApiError.validation(`Attribute "${item.key}" is given twice.`, {
        field: `${field}[${i}].key`,
      });
    }
    seen.add(item.key);
    return { key: item.key, value: item.value as AttributeInput['value'] };
  });
}
