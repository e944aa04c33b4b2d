import type { ProductWriteRequest } from '#lib/catalog-contract';
import { portalFor, productBody, type RequestLogEntry } from '#testing/catalog-sandbox';
import type { CatalogClientLogger, CatalogClientMetrics } from '../src/index.js';

export { drive } from '#lib/testing';
// The sandbox as the client's tests reach it: new test files import these from here, never by path.
export {
  type CatalogSandboxHarness,
  startCatalogSandbox,
  type TestAccount,
} from '#testing/catalog-sandbox';

/** An entry of the sandbox's request log. */
export type LoggedRequest = RequestLogEntry;

/** One account's portal controls (request log, faults, rate limit, keys): the testing entry's. */
export { portalFor };

/** The largest number of times falling in any half-open window [t, t + windowMs). */
export function maxInWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while ((sorted[end] as number) - (sorted[start] as number) >= windowMs) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

/**
 * The largest number of intervals lying wholly inside one half-open window [t, t + windowMs).
 * Each interval brackets an instant known only that well (a grant, somewhere inside the store
 * call that made it), so this counts instants a window surely held: never more than
 * `maxInWindow` of the true instants, however much a loaded machine widens the brackets.
 */
export function maxSurelyInWindow(
  intervals: ReadonlyArray<readonly [number, number]>,
  windowMs: number,
): number {
  let best = 0;
  for (const [start] of intervals) {
    const inside = intervals.filter(([from, to]) => from >= start && to < start + windowMs).length;
    best = Math.max(best, inside);
  }
  return best;
}

/** Metrics hooks and a logger that keep everything they receive, for assertions. */
export function recorder() {
  const events: Array<{ hook: string; event: unknown }> = [];
  const hook =
    (name: string) =>
    (event: unknown): void => {
      events.push({ hook: name, event });
    };
  const metrics: CatalogClientMetrics = {
    call: hook('call'),
    rateLimited: hook('rateLimited'),
    retry: hook('retry'),
    rejected: hook('rejected'),
    breakerState: hook('breakerState'),
    limiterWait: hook('limiterWait'),
    createReconciled: hook('createReconciled'),
    upload: hook('upload'),
  };
  const logger: CatalogClientLogger = {
    debug: (message, fields) => events.push({ hook: 'log.debug', event: { message, fields } }),
    warn: (message, fields) => events.push({ hook: 'log.warn', event: { message, fields } }),
  };
  const of = <E = Record<string, unknown>>(name: string): E[] =>
    events.filter((e) => e.hook === name).map((e) => e.event as E);
  return { events, metrics, logger, of };
}

/** The sandbox harness's product body (name and brand), typed as the client's request. */
export function product(supplierSku: string): ProductWriteRequest {
  // Without `extra`, the harness's values are the two strings it writes itself.
  return productBody(supplierSku) as ProductWriteRequest;
}
