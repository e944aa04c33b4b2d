/** Nest injection token of the `ShopifySandboxConfig`. */
export const SANDBOX_CONFIG = 'SHOPIFY_SANDBOX_CONFIG';
