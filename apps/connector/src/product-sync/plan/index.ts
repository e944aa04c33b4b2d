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
} from '../../clients/shopify/canonical-product.js';
export { CanonicalReadError, readCanonicalProduct } from '../../clients/shopify/canonical-product.reader.js';
export type { CanonicalProductVariables } from '../../clients/shopify/documents/canonical-product.query.js';
export { planDeletion } from './plan-deletion.js';
export { type LargeProductPolicy, type PlanInput, planSync } from './plan-sync.js';
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
