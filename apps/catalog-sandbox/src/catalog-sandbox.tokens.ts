/** Nest injection token of the `CatalogSandboxConfig` (a Symbol, so no string can collide with it). */
export const SANDBOX_CONFIG = Symbol('CATALOG_SANDBOX_CONFIG');
