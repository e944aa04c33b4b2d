/** Nest injection token of the `ShopifySandboxConfig` (a Symbol, so no string can collide with it). */
export const SANDBOX_CONFIG = Symbol('SHOPIFY_SANDBOX_CONFIG');
