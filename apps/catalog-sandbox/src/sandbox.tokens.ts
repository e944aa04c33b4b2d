/** Injection token of the CatalogSandboxConfig. */
export const SANDBOX_CONFIG = Symbol('CATALOG_SANDBOX_CONFIG');
