import { graphqlTime } from '../common/shop-time.js';
import type { AdminContext, GraphQLObject } from '../graphql/admin-context.js';
import type { Shop } from '../shops/shop.js';

/** `BulkOperationStatus`, as the 2026-07 schema lists it. */
export type BulkStatus =
  | 'CREATED'
  | 'RUNNING'
  | 'CANCELING'
  | 'CANCELED'
  | 'COMPLETED'
  | 'FAILED'
  | 'EXPIRED';

/** `BulkOperationErrorCode`. */
export type BulkErrorCode = 'ACCESS_DENIED' | 'INTERNAL_SERVER_ERROR' | 'TIMEOUT';

/** One JSONL line of a result, and whether it counts in `rootObjectCount`. */
export interface JsonlLine {
  text: string;
  root: boolean;
}

/** One bulk query operation of a shop, with the lines it writes as it runs. */
export interface BulkOperationRecord {
  id: number;
  type: 'QUERY';
  /** The app that ran it (its subscriptions get `bulk_operations/finish`); the default app when absent. */
  clientId?: string;
  query: string;
  groupObjects: boolean;
  /** The stored state; `EXPIRED` is derived from the clock when read (see `viewStatus`). */
  status: Exclude<BulkStatus, 'EXPIRED'>;
  errorCode: BulkErrorCode | null;
  createdAt: number;
  /** When it reached CANCELED, COMPLETED or FAILED. */
  finishedAt: number | null;
  objectCount: number;
  rootObjectCount: number;
  /** Every line the query yields (taken when the run is created), and how many are written. */
  lines: JsonlLine[];
  written: number;
  /** The written JSONL (final, partial or canceled), dropped once it expires. */
  file: Buffer | null;
  /** The shop's bulk faults when the run was created: later changes do not reach it. */
  faults: BulkFaults;
}

/** The statuses in which a run counts against the shop's concurrency limit. */
export const IN_PROGRESS: ReadonlySet<BulkStatus> = new Set(['CREATED', 'RUNNING', 'CANCELING']);

export function bulkOperationGid(id: number): string {
  return `gid://shopify/BulkOperation/${id}`;
}

/** A `BulkOperationUserError` / `UserError` as the payloads carry them. */
export interface BulkUserError {
  field: string[] | null;
  message: string;
  code?: 'INVALID' | 'LIMIT_REACHED' | 'OPERATION_IN_PROGRESS';
}

/** What the bulk resolvers ask of the bulk operation service (kept to an interface: no import cycle). */
export interface BulkOperations {
  runQuery(
    ctx: AdminContext,
    query: string,
    groupObjects: boolean,
  ): Promise<{ bulkOperation: GraphQLObject | null; userErrors: BulkUserError[] }>;
  cancel(shop: Shop, id: string): { bulkOperation: GraphQLObject | null; userErrors: BulkUserError[] };
  find(shop: Shop, id: string): GraphQLObject | null;
  current(shop: Shop, type: string, clientId?: string): GraphQLObject | null;
}

/** The bulk faults a run gets: the configuration's, overridden per shop through the control API. */
export interface BulkFaults {
  failHalfway: boolean;
  urlTtlMs: number;
}

/** What the control API lists of one run. */
export interface BulkRunSummary {
  id: string;
  type: string;
  status: string;
  query: string;
  groupObjects: boolean;
  objectCount: number;
  rootObjectCount: number;
  errorCode: string | null;
  createdAt: string;
  finishedAt: string | null;
}

/** What a view of a run needs: the time and the signed link to its file. */
export interface BulkView {
  now: number;
  fileUrl(record: BulkOperationRecord): string;
}

/**
 * When a finished run's results, and its link, go: the run's own `urlTtlMs` after it ended,
 * rounded down to the whole second its link's `Expires` names. Down, so that the results never
 * outlive `urlTtlMs`: a lifetime under a second may end them with the run (never seen COMPLETED
 * with a working link), which is how a test gets an expired link without racing the app.
 */
export function resultsExpireAt(record: BulkOperationRecord): number | null {
  if (record.finishedAt === null) return null;
  return Math.floor((record.finishedAt + record.faults.urlTtlMs) / 1000) * 1000;
}

/** The status as read now: a finished run whose results outlived the retention is EXPIRED. */
export function viewStatus(record: BulkOperationRecord, view: Pick<BulkView, 'now'>): BulkStatus {
  const expiresAt = resultsExpireAt(record);
  if (expiresAt !== null && record.written > 0 && view.now >= expiresAt) return 'EXPIRED';
  return record.status;
}

/**
 * A run as GraphQL `BulkOperation`. `UnsignedInt64` counts are strings, as Shopify serializes
 * them. `url` holds the JSONL of a COMPLETED run (null when it found nothing) and, as captured
 * answers show, of a CANCELED one; `partialDataUrl` the lines a FAILED run wrote. Both are
 * null once EXPIRED.
 */
export function bulkOperationNode(record: BulkOperationRecord, view: BulkView): GraphQLObject {
  const status = viewStatus(record, view);
  const hasFile = status !== 'EXPIRED' && record.file !== null && record.written > 0;
  const completed = status === 'COMPLETED';
  return {
    __typename: 'BulkOperation',
    id: bulkOperationGid(record.id),
    type: record.type,
    status,
    errorCode: record.errorCode,
    query: record.query,
    createdAt: graphqlTime(record.createdAt),
    completedAt:
      completed || (status === 'EXPIRED' && record.status === 'COMPLETED') ? finishedTime(record) : null,
    objectCount: String(record.objectCount),
    rootObjectCount: String(record.rootObjectCount),
    fileSize: completed && hasFile ? String(record.file?.length ?? 0) : null,
    url: hasFile && (completed || status === 'CANCELED') ? view.fileUrl(record) : null,
    partialDataUrl: hasFile && status === 'FAILED' ? view.fileUrl(record) : null,
  };
}

function finishedTime(record: BulkOperationRecord): string | null {
  return record.finishedAt === null ? null : graphqlTime(record.finishedAt);
}
