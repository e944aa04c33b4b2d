import type { Clock } from '#lib/clock';
import { BULK_OPERATION_COST, BULK_OPERATION_QUERY } from './documents/bulk-operation.query.js';
import {
  BULK_OPERATION_RUN_QUERY_COST,
  BULK_OPERATION_RUN_QUERY_MUTATION,
} from './documents/bulk-operation-run-query.mutation.js';
import type { ShopAdminClient } from './shop-admin.client.js';

/** A bulk operation that did not give its results: refused, failed, cancelled, expired, or its link dead. */
export class BulkOperationError extends Error {
  constructor(
    /** `userError:<code>`, `FAILED:<errorCode>`, `CANCELED`, `EXPIRED`, `download:<status>`, … */
    readonly reason: string,
    readonly operationId: string | null,
  ) {
    super(`bulk operation ${operationId ?? '(not started)'}: ${reason}`);
    this.name = 'BulkOperationError';
  }
}

interface OperationState {
  id: string;
  status: string;
  errorCode: string | null;
  url: string | null;
}

const RUNNING = new Set(['CREATED', 'RUNNING', 'CANCELING']);
/** The first wait between polls (doubling up to `pollMs`). */
const FIRST_POLL_MS = 100;

/**
 * Starts a bulk query and polls `bulkOperation(id)` (on the injected clock: after 100 ms, then
 * twice as long each time up to `pollMs`) until it ends. Resolves to the operation's id and the link to its JSONL (null: nothing matched).
 * Polling costs one point a call; the `bulk_operations/finish` webhook would only save those.
 */
export async function runBulkQuery(
  admin: ShopAdminClient,
  query: string,
  clock: Clock,
  pollMs: number,
  onStarted: (operationId: string) => void = () => undefined,
): Promise<{ operationId: string; url: string | null }> {
  const started = await admin.request<{
    bulkOperationRunQuery: {
      bulkOperation: { id: string } | null;
      userErrors: Array<{ message: string; code: string | null }>;
    };
  }>(BULK_OPERATION_RUN_QUERY_MUTATION, { query }, BULK_OPERATION_RUN_QUERY_COST);
  const { bulkOperation, userErrors } = started.bulkOperationRunQuery;
  if (!bulkOperation) {
    const first = userErrors[0];
    throw new BulkOperationError(
      `userError:${first?.code ?? 'unknown'} ${first?.message ?? ''}`.trim(),
      null,
    );
  }
  onStarted(bulkOperation.id);
  // A small result is ready in a moment: the first polls come soon, then every `pollMs`.
  let wait = Math.min(pollMs, FIRST_POLL_MS);
  for (;;) {
    const { bulkOperation: state } = await admin.request<{ bulkOperation: OperationState | null }>(
      BULK_OPERATION_QUERY,
      { id: bulkOperation.id },
      BULK_OPERATION_COST,
    );
    if (!state) throw new BulkOperationError('not found', bulkOperation.id);
    if (state.status === 'COMPLETED') return { operationId: state.id, url: state.url };
    if (!RUNNING.has(state.status)) {
      const reason = state.errorCode ? `${state.status}:${state.errorCode}` : state.status;
      throw new BulkOperationError(reason, state.id);
    }
    await clock.sleep(wait);
    wait = Math.min(pollMs, wait * 2);
  }
}
