import { FailureNotOpenError, type FailuresService } from '../../platform/failures/failures.service.js';
import type { ConnectorMetrics } from '../metrics/connector-metrics.service.js';

/** What a bulk replay or dismiss did: the ids it resolved, and those it skipped and why. */
export interface BulkOutcome {
  done: string[];
  skipped: Array<{ id: string; message: string }>;
}

/**
 * Why: the admin API's `POST /admin/failures/dismiss` and the web view's "Dismiss selected" /
 * "Replay selected" resolve a list of failures the same way, one at a time through the
 * single-failure service (each is its own transaction; one that is no longer open, or unknown,
 * is skipped with a reason instead of failing the rest).
 */
export async function resolveMany(
  failures: FailuresService,
  metrics: ConnectorMetrics,
  ids: readonly string[],
  action: 'replayed' | 'dismissed',
): Promise<BulkOutcome> {
  const outcome: BulkOutcome = { done: [], skipped: [] };
  for (const id of ids) {
    try {
      const failure = action === 'replayed' ? await failures.replay(id) : await failures.dismiss(id);
      metrics.failureResolved(failure.jobKind, action);
      outcome.done.push(failure.id);
    } catch (error) {
      const message =
        error instanceof FailureNotOpenError
          ? 'not open (already resolved, or unknown)'
          : String((error as Error).message).slice(0, 300);
      outcome.skipped.push({ id, message });
    }
  }
  return outcome;
}
