import type { ProductWriteRequest, VariantCreateRequest, VariantPatchRequest } from '#lib/catalog-contract';
import type { Dependency } from '../../mapping/validated-mapping.js';

/** The catalog record kinds the sku map knows (spec: simple product, parent product, variant). */
export type RecordKind = 'simple' | 'parent' | 'variant';

/** Attribute values as last applied to a record (no nulls: a cleared attribute is absent). */
export type AttributeSnapshot = Readonly<Record<string, string | string[]>>;

/**
 * What the sku map holds for one catalog record of the product, as the planner needs it. Pass
 * the product's live and pending rows (not tombstoned ones). `skuId` is null while a create is
 * pending (its outcome unknown) and after a record was found gone from the catalog: both are
 * (re)created, the pending one with a look-up first.
 */
export interface StoredRecord {
  kind: RecordKind;
  /** Null on the product's own row; the variant's numeric id (or gid) otherwise. */
  shopifyVariantId: string | null;
  supplierSku: string;
  skuId: string | null;
  snapshot: AttributeSnapshot;
  /**
   * On variant rows, the parent the record was created under (a product split into groups moves a
   * variant whose group changed: delete and create). Left out: not compared.
   */
  parentSupplierSku?: string | null;
  /** On the parents of a split product: the group's key (`PlannedRecord.variantGroup`). */
  variantGroup?: string | null;
}

/** Identifies the record a call is for: `shopifyVariantId` null is the product's own record. */
export interface RecordRef {
  kind: RecordKind;
  shopifyVariantId: string | null;
  supplierSku: string;
}

/**
 * One catalog call, in the order the plan gives. The `CatalogClient` method is named by `kind`;
 * creates pass `{ lookupFirst }`. A delete whose `skuId` is null is for a record whose create is
 * pending: find it by `supplierSku` first (it may not exist).
 */
export type CatalogCall =
  | { kind: 'createProduct'; record: RecordRef; body: ProductWriteRequest; lookupFirst: boolean }
  | { kind: 'createVariant'; record: RecordRef; body: VariantCreateRequest; lookupFirst: boolean }
  | { kind: 'updateProduct'; record: RecordRef; skuId: string; body: ProductWriteRequest }
  | { kind: 'updateVariant'; record: RecordRef; skuId: string; body: VariantPatchRequest }
  | { kind: 'deleteVariant'; record: RecordRef; skuId: string | null }
  | { kind: 'deleteProduct'; record: RecordRef; skuId: string | null };

/** An attribute left out of a record because a Shopify value has no catalog equivalent. */
export interface MappingGap {
  record: RecordRef;
  /** The mapping entry, e.g. `variant.options.Color`. */
  entry: string;
  attribute: string;
  values: string[];
  reason: 'unknown-value' | 'invalid-value';
  message: string;
}

/** Something the product's status should say; the sync still goes on. */
export interface PlanNote {
  code: 'enrichment-will-fail' | 'unmapped-option' | 'required-attribute-kept';
  message: string;
  attribute?: string;
  option?: string;
}

/** Why nothing was planned: a reported failure, never a half sync. */
export interface PlanFailure {
  code: 'variant-limit-exceeded' | 'missing-required-attribute' | 'variants-not-read';
  message: string;
  variantCount?: number;
  limit?: number;
  attribute?: string;
}

/**
 * The state one record should have in the sku map once its call (if any) succeeded: write it
 * for every record of the plan, `unchanged` ones included (their configuration hash or kind may
 * have moved).
 */
export interface PlannedRecord extends RecordRef {
  parentSupplierSku: string | null;
  /**
   * On the parents of a product split into groups (over 200 variants): the group's key
   * (`variantGroups`); absent on the product's one own record.
   */
  variantGroup?: string;
  /** Known for records that exist; a create's answer gives it. */
  skuId: string | null;
  action: 'create' | 'update' | 'unchanged' | 'delete';
  /**
   * On a parent deleted by a change of the product's shape (the Shopify product lives on): its
   * row is removed once the delete succeeded, not tombstoned, so a later shape can need (and
   * create) that parent again (the map's unique keys count tombstoned rows).
   */
  removeRow?: true;
  /** The attribute snapshot to store once applied. */
  snapshot: AttributeSnapshot;
  /** Shopify's `updatedAt` of the product (product record) or variant the record was built from. */
  shopifyUpdatedAt: string | null;
  /**
   * For configuration drift: store both; `mapping.configurationHash(dependencies)` differs from
   * `hash` once the file or the account changed in a way that matters to this record. Null on
   * records being deleted.
   */
  configuration: { dependencies: Dependency[]; hash: string } | null;
  gaps: MappingGap[];
}

export interface SyncPlan {
  status: 'planned' | 'failed';
  failure: PlanFailure | null;
  records: PlannedRecord[];
  calls: CatalogCall[];
  gaps: MappingGap[];
  notes: PlanNote[];
}

/** Method and path of a call, for the record of every sync (a pending delete has no path yet). */
export function routeOf(call: CatalogCall): { method: string; path: string } {
  switch (call.kind) {
    case 'createProduct':
      return { method: 'POST', path: '/v1/products' };
    case 'createVariant':
      return { method: 'POST', path: '/v1/variants' };
    case 'updateProduct':
      return { method: 'PATCH', path: `/v1/products/${call.skuId}` };
    case 'updateVariant':
      return { method: 'PATCH', path: `/v1/variants/${call.skuId}` };
    case 'deleteVariant':
      return { method: 'DELETE', path: `/v1/variants/${call.skuId ?? '{skuId}'}` };
    case 'deleteProduct':
      return { method: 'DELETE', path: `/v1/products/${call.skuId ?? '{skuId}'}` };
  }
}
