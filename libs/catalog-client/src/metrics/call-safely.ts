/**
 * Runs a caller-supplied hook (metrics, logger, breaker listener) so that nothing it does reaches
 * the call that triggered it: a throw is swallowed, and so is a rejected promise (an `async` hook),
 * which would otherwise be an unhandled rejection. Why: a hook is observation; a broken one must
 * never change a call's outcome nor what the breaker learns.
 */
export function callSafely(hook: () => unknown): void {
  try {
    const result: unknown = hook();
    if (isThenable(result)) result.then(undefined, () => undefined);
  } catch {
    // Observation must never break a call.
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
