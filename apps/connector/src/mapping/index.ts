// The mapping feature's import surface: read a shop's mapping file, check it against the catalog
// account (boot check), and resolve values and configuration hashes with the result.
export { type CatalogConfiguration, checkMapping } from './check-mapping.js';
export { checkOwnership, REQUIRED_ON_CREATE, shopifyFieldOf } from './check-ownership.js';
export {
  type CatalogConfigurationReader,
  checkMappingAgainstCatalog,
  type MappingCheckResult,
  readCatalogConfiguration,
} from './mapping-boot-check.js';
export type {
  FieldEntry,
  MappingFile,
  OptionEntry,
  SupplierSkuSettings,
  ValueMap,
  ValueSettings,
  WriteBackEntry,
  WriteBackTarget,
} from './model/mapping-file.js';
export { formatProblem, MappingError, type MappingProblem } from './model/mapping-problem.js';
export {
  PRODUCT_SOURCE_FIELDS,
  type ProductSourceField,
  VARIANT_SOURCE_FIELDS,
  type VariantSourceField,
} from './model/source-fields.js';
export { loadMappingFile, parseMappingFile } from './parse-mapping-file.js';
export { TaxonomyIndex } from './taxonomy-index.js';
export {
  Dependencies,
  type Dependency,
  digest,
  type ResolvedFieldEntry,
  type ResolvedOptionEntry,
  type ResolvedWriteBackEntry,
  ValidatedMapping,
} from './validated-mapping.js';
export {
  type Resolution,
  type ResolvableEntry,
  type ResolveContext,
  resolveValue,
} from './value-resolver.js';
export * as MetafieldTypes from './write-back/metafield-types.data.js';
export {
  compatibilityProblem,
  FIELD_TARGET_SOURCES,
  METAFIELD_TARGET_SOURCES,
  metafieldTargetProblems,
  sourcesFor,
} from './write-back/write-back-targets.js';
