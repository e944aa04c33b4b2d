import { CatalogErrorCode } from '#lib/catalog-contract';
import type { Clock } from '#lib/clock';
import { CatalogClientError, ClientErrorCode } from '../errors/catalog-client.error.js';
import type { Redact } from '../errors/redaction.js';
import type { CatalogRequest, CatalogTransport } from '../http/catalog-transport.js';
import type { CatalogClientLogger, CatalogClientMetrics } from '../metrics/client-metrics.js';

/**
 * What a create does after an ambiguous failure (time-out, dropped connection, 5xx: the record
 * may or may not have been committed):
 * - `adopt-or-recreate` (default): wait (after a time-out at least `timeoutSettleMs`), look the
 *   `supplierSku` up, adopt the record found, or POST again (up to `maxAttempts` POSTs). A write
 *   that lands after the look-up makes a second record: the known duplicate window.
 * - `adopt-or-throw`: wait, look up, adopt; never a second POST: when nothing is found, throw
 *   `create_outcome_unknown` and let the caller reconcile later.
 * - `throw`: throw `create_outcome_unknown` at once (no wait, no look-up).
 */
export type AmbiguousCreatePolicy = 'adopt-or-recreate' | 'adopt-or-throw' | 'throw';

export interface CreateSpec<T> {
  /** The POST. Never repeated blindly: the catalog does not deduplicate `supplierSku`. */
  request: CatalogRequest;
  supplierSku: string;
  /** Finds the record this create would have made (search by `supplierSku` `$eq`), or null. */
  lookup: () => Promise<T | null>;
  /** Look the record up before the first POST (e.g. when a previous process may have sent it). */
  lookupFirst?: boolean;
  /** Default `adopt-or-recreate`. */
  onAmbiguous?: AmbiguousCreatePolicy;
}

export interface CreateReconcilerOptions {
  transport: CatalogTransport;
  clock: Clock;
  metrics: CatalogClientMetrics;
  logger: Required<CatalogClientLogger>;
  redact: Redact;
  /** POSTs sent at most, the first included. Default 4. */
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /**
   * After a time-out, wait at least this long before the look-up: the server may still be
   * working on the request the client gave up on. Default 5 s.
   */
  timeoutSettleMs?: number;
  random?: () => number;
}

/**
 * Creates that survive ambiguous failures without duplicates. When a create fails such that it may
 * have been committed (time-out, dropped connection, 5xx), the record is looked up by its
 * `supplierSku` (after a back-off that lets a slow write land): if it exists it is adopted; only if
 * none exists is the create sent again (policy `adopt-or-recreate`; see `AmbiguousCreatePolicy`).
 * A `duplicate_supplier_sku` answer after such a failure (variants are unique) is resolved the
 * same way. Unambiguous failures (4xx) are thrown at once; 429s are absorbed by the transport.
 * Whatever ends a create after an ambiguous failure without a record is `create_outcome_unknown`.
 */
export class CreateReconciler {
  private readonly options: CreateReconcilerOptions;

  constructor(options: CreateReconcilerOptions) {
    this.options = options;
  }

  async create<T>(spec: CreateSpec<T>): Promise<T> {
    const { metrics, logger } = this.options;
    const endpoint = spec.request.endpoint;
    if (spec.lookupFirst) {
      const existing = await spec.lookup();
      if (existing) {
        metrics.createReconciled({ endpoint, result: 'adopted' });
        return existing;
      }
    }
    const policy = spec.onAmbiguous ?? 'adopt-or-recreate';
    const maxAttempts = this.options.maxAttempts ?? 4;
    /** The first ambiguous failure: from then on, a record may exist whatever happens next. */
    let ambiguousSeen: CatalogClientError | null = null;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.options.transport.send<T>(spec.request);
      } catch (error) {
        if (!(error instanceof CatalogClientError)) throw error;
        const ambiguous = isAmbiguous(error);
        const duplicateAfterAmbiguity =
          ambiguousSeen !== null && error.code === CatalogErrorCode.DUPLICATE_SUPPLIER_SKU;
        if (!ambiguous && !duplicateAfterAmbiguity) {
          // An earlier POST may still have landed: say so rather than pass on this failure alone.
          if (ambiguousSeen) throw this.unknown(spec, error, attempt, { lookup: 'not_found' });
          throw error;
        }
        ambiguousSeen ??= error;
        if (policy === 'throw') throw this.unknown(spec, error, attempt, { lookup: 'skipped' });
        // Give a write still in flight on the server time to commit before looking for it.
        await this.options.clock.sleep(this.settleDelay(error, attempt));
        const found = await this.lookup(spec, error, attempt);
        if (found) {
          metrics.createReconciled({ endpoint, result: 'adopted' });
          logger.warn('ambiguous catalog create: adopted the existing record', {
            endpoint,
            supplierSku: spec.supplierSku,
            code: error.code,
          });
          return found;
        }
        if (duplicateAfterAmbiguity) throw error;
        if (policy === 'adopt-or-throw' || attempt >= maxAttempts)
          throw this.unknown(spec, error, attempt, { lookup: 'not_found' });
        metrics.createReconciled({ endpoint, result: 'created_again' });
        metrics.retry({ endpoint, attempt: attempt + 1, reason: retryReasonOf(error), delayMs: 0 });
        logger.warn('ambiguous catalog create: no record found, creating again', {
          endpoint,
          supplierSku: spec.supplierSku,
          code: error.code,
        });
      }
    }
  }

  private async lookup<T>(
    spec: CreateSpec<T>,
    failure: CatalogClientError,
    posts: number,
  ): Promise<T | null> {
    try {
      return await spec.lookup();
    } catch (lookupError) {
      const lookupFailure = lookupError instanceof CatalogClientError ? lookupError.code : 'unknown';
      throw this.unknown(spec, failure, posts, { lookup: 'failed', lookupFailure });
    }
  }

  /** `create_outcome_unknown`: names the `supplierSku` so the caller can reconcile by it. */
  private unknown<T>(
    spec: CreateSpec<T>,
    failure: CatalogClientError,
    posts: number,
    how: { lookup: 'skipped' | 'not_found' | 'failed'; lookupFailure?: string },
  ): CatalogClientError {
    const { method, path } = spec.request;
    const why = {
      skipped: 'not looked up (onAmbiguous: throw)',
      not_found: 'no record found yet, but a late write may still land',
      failed: `the look-up by supplierSku failed (${how.lookupFailure})`,
    }[how.lookup];
    return new CatalogClientError({
      message: `Catalog ${method} ${path} for supplierSku "${spec.supplierSku}" failed ambiguously (${failure.code}); ${why}: the record may or may not exist`,
      errorCode: null,
      code: ClientErrorCode.CREATE_OUTCOME_UNKNOWN,
      status: null,
      details: {
        supplierSku: spec.supplierSku,
        createFailure: failure.code,
        lookup: how.lookup,
        ...(how.lookupFailure ? { lookupFailure: how.lookupFailure } : {}),
        posts,
      },
      suggestion:
        'Reconcile by supplierSku later (client.findBySupplierSku), or create again with { lookupFirst: true } once a late write can no longer land.',
      retryable: true,
      method,
      path,
      attempts: posts,
      redact: this.options.redact,
    });
  }

  /** Back-off with full jitter; after a time-out at least `timeoutSettleMs`. */
  private settleDelay(error: CatalogClientError, attempt: number): number {
    const base = this.options.baseDelayMs ?? 500;
    const ceiling = Math.min(this.options.maxDelayMs ?? 30_000, base * 2 ** (attempt - 1));
    const backoff = Math.floor((this.options.random ?? Math.random)() * ceiling);
    return error.code === ClientErrorCode.TIMEOUT
      ? Math.max(backoff, this.options.timeoutSettleMs ?? 5_000)
      : backoff;
  }
}

/** A failure after which the create may or may not have been committed. */
export function isAmbiguous(error: CatalogClientError): boolean {
  return (
    error.code === ClientErrorCode.TIMEOUT ||
    error.code === ClientErrorCode.NETWORK_ERROR ||
    (error.status !== null && error.status >= 500)
  );
}

function retryReasonOf(error: CatalogClientError): 'timeout' | 'network_error' | 'server_error' {
  if (error.code === ClientErrorCode.TIMEOUT) return 'timeout';
  if (error.code === ClientErrorCode.NETWORK_ERROR) return 'network_error';
  return 'server_error';
}
