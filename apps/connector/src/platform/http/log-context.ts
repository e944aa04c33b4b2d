import { AsyncLocalStorage } from 'node:async_hooks';

/** What every log line written while handling one webhook or one job carries. */
export interface LogContext {
  /** The request's correlation id (`X-Request-Id`), or `job:<kind>:<id>` for a job run. */
  correlationId: string;
  /** Further facts safe to log: shop, webhook id, product id, job id. Never a secret. */
  [field: string]: string;
}

const storage = new AsyncLocalStorage<LogContext>();

/**
 * The correlation of log lines, carried through async calls (AsyncLocalStorage): the HTTP
 * middleware opens one per request, `JobGuard` one per job run, and the JSON logger adds the
 * current one to every line. Code in between passes nothing along.
 */
export const logContext = {
  run<T>(context: LogContext, work: () => T): T {
    return storage.run(context, work);
  },
  current(): LogContext | undefined {
    return storage.getStore();
  },
};
