// The sync planner's import surface: the canonical Shopify product (its GraphQL read and reader)
// and the pure planning of catalog calls from it, a validated mapping and the sku map's rows.
export {
  type CanonicalMedia,
  type CanonicalOption,
  type CanonicalProduct,
  type CanonicalProductStatus,
  type CanonicalVariant,
  DEFAULT_OPTION,
  isSimpleProduct,
  legacyIdOf,
} from './canonical-product.js';
export {
  CANONICAL_PRODUCT_OPERATION,
  CANONICAL_PRODUCT_QUERY,
  type CanonicalProductVariables,
} from './canonical-product.query.js';
export { CanonicalReadError, readCanonicalProduct } from './canonical-product.reader.js';
export { planDeletion } from './plan-deletion.js';
export { type PlanInput, planSync } from './plan-sync.js';
export { newSupplierSku, shopHandle } from './supplier-sku.js';
export {
  type AttributeSnapshot,
  type CatalogCall,
  type MappingGap,
  type PlanFailure,
  type PlanNote,
  type PlannedRecord,
  type RecordKind,
  type RecordRef,
  routeOf,
  type StoredRecord,
  type SyncPlan,
} from './sync-plan.js';
