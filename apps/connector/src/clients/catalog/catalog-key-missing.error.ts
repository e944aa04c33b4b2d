/**
 * Why: a shop that installed the app has no catalog API key until the operator sets one
 * (`PUT /admin/shops/{shop}/catalog-key`, or the CLI's `shops catalog-key`). Its catalog work
 * waits (`waitMs`: delayed by the job guard, no attempt spent, no failure row), as for a paused
 * key, and resumes once the key is set.
 */
export class CatalogKeyMissingError extends Error {
  readonly code = 'catalog_key_missing';
  readonly retryable = false;

  constructor(
    readonly shop: string,
    readonly waitMs: number,
  ) {
    super(`${shop} has no catalog API key yet: set it with PUT /admin/shops/${shop}/catalog-key`);
    this.name = 'CatalogKeyMissingError';
  }
}
