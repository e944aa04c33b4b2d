/**
 * The access scopes the connector needs of an installed shop: read products, write them back,
 * and read inventory (the product read asks each variant's `inventoryItem.duplicateSkuCount`).
 */
export const REQUIRED_SCOPES = ['read_products', 'write_products', 'read_inventory'] as const;

/**
 * The needed scopes the grant lacks. Shopify answers the granted scopes comma-separated, and a
 * `write_` scope implies its `read_` one (a grant of `write_products` may omit `read_products`).
 */
export function missingScopes(needed: readonly string[], granted: string | null): string[] {
  const have = new Set((granted ?? '').split(',').map((scope) => scope.trim()));
  return needed.filter((scope) => !have.has(scope) && !have.has(scope.replace(/^read_/, 'write_')));
}
