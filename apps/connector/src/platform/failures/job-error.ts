/** A job error reduced to what the failures table keeps. */
export interface JobErrorInfo {
  code: string;
  message: string;
  /** Whether running the same job later, unchanged, may succeed. */
  retryable: boolean;
}

/**
 * Classifies anything a job threw. Errors that know (the catalog client's `CatalogClientError`,
 * the connector's `ShopifyAdminError`) carry `code` and `retryable`; anything else is an
 * unexpected error, retried in case it was transient.
 */
export function jobErrorInfo(error: unknown): JobErrorInfo {
  if (error instanceof Error) {
    const known = error as Error & { code?: unknown; retryable?: unknown };
    if (typeof known.code === 'string' && typeof known.retryable === 'boolean') {
      return { code: known.code, message: error.message, retryable: known.retryable };
    }
    return { code: 'unexpected_error', message: `${error.name}: ${error.message}`, retryable: true };
  }
  return { code: 'unexpected_error', message: String(error), retryable: true };
}

/** A job error nobody can fix by waiting (bad data, a missing mapping): fails without retries. */
export class PermanentJobError extends Error {
  readonly retryable = false;

  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'PermanentJobError';
  }
}

/**
 * How long a job must wait before looking again, when its error says so (`waitMs`: a shop in
 * `needs_reauth` or uninstalled, `ShopAuthError`): the job is delayed, not failed. Null otherwise.
 */
export function jobWaitMs(error: unknown): number | null {
  const waitMs = (error as { waitMs?: unknown } | null)?.waitMs;
  return typeof waitMs === 'number' ? waitMs : null;
}
