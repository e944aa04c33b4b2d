import { CatalogErrorCode } from '#lib/catalog-contract';
import type { Clock } from '#lib/clock';
import { CatalogClientError, ClientErrorCode } from '../errors/catalog-client.error.js';
import type { CatalogRequest, CatalogTransport } from '../http/catalog-transport.js';
import type { CatalogClientLogger, CatalogClientMetrics } from '../metrics/client-metrics.js';

export interface CreateSpec<T> {
  /** The POST. Never repeated blindly: the catalog does not deduplicate `supplierSku`. */
  request: CatalogRequest;
  supplierSku: string;
  /** Finds the record this create would have made (search by `supplierSku` `$eq`), or null. */
  lookup: () => Promise<T | null>;
  /** Look the record up before the first POST (e.g. when a previous process may have sent it). */
  lookupFirst?: boolean;
}

export interface CreateReconcilerOptions {
  transport: CatalogTransport;
  clock: Clock;
  metrics: CatalogClientMetrics;
  logger?: CatalogClientLogger;
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
 * none exists is the create sent again. A
 * `duplicate_supplier_sku` answer after such a failure (variants are unique) is resolved the same
 * way. Unambiguous failures (4xx) are thrown at once; 429s are absorbed by the transport.
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
    const maxAttempts = this.options.maxAttempts ?? 4;
    let ambiguousSeen = false;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.options.transport.send<T>(spec.request);
      } catch (error) {
        if (!(error instanceof CatalogClientError)) throw error;
        const ambiguous = isAmbiguous(error);
        const duplicateAfterAmbiguity =
          ambiguousSeen && error.code === CatalogErrorCode.DUPLICATE_SUPPLIER_SKU;
        if (!ambiguous && !duplicateAfterAmbiguity) throw error;
        ambiguousSeen = true;
        // Give a write still in flight on the server time to commit before looking for it.
        await this.options.clock.sleep(this.settleDelay(error, attempt));
        const found = await this.lookup(spec, error);
        if (found) {
          metrics.createReconciled({ endpoint, result: 'adopted' });
          logger?.warn?.('ambiguous catalog create: adopted the existing record', {
            endpoint,
            supplierSku: spec.supplierSku,
            code: error.code,
          });
          return found;
        }
        if (attempt >= maxAttempts || duplicateAfterAmbiguity) throw error;
        metrics.createReconciled({ endpoint, result: 'created_again' });
        metrics.retry({ endpoint, attempt: attempt + 1, reason: retryReasonOf(error), delayMs: 0 });
        logger?.warn?.('ambiguous catalog create: no record found, creating again', {
          endpoint,
          supplierSku: spec.supplierSku,
          code: error.code,
        });
      }
    }
  }

  private async lookup<T>(spec: CreateSpec<T>, failure: CatalogClientError): Promise<T | null> {
    try {
      return await spec.lookup();
    } catch (lookupError) {
      const lookupCode = lookupError instanceof CatalogClientError ? lookupError.code : 'unknown';
      throw new CatalogClientError({
        message: `Catalog ${failure.method} ${failure.path} failed ambiguously (${failure.code}) and the look-up by supplierSku failed (${lookupCode}): the record may or may not exist`,
        errorCode: null,
        code: ClientErrorCode.CREATE_OUTCOME_UNKNOWN,
        status: null,
        details: { supplierSku: spec.supplierSku, createFailure: failure.code, lookupFailure: lookupCode },
        suggestion: 'Create again later with { lookupFirst: true }, which adopts the record if it exists.',
        retryable: true,
        method: failure.method,
        path: failure.path,
        attempts: failure.attempts,
      });
    }
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
