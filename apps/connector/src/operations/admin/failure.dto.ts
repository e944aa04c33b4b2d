import type { Failure, FailureState } from '../../platform/failures/failure.entity.js';

/** A failure as the admin API shows it: the entity's facts, not the entity (no ORM object leaks). */
export interface FailureDto {
  id: string;
  shop: string;
  jobKind: string;
  /** What the job was about (a product sync: the Shopify product id). */
  subjectKey: string;
  state: FailureState;
  error: { code: string; message: string; retryable: boolean };
  attempts: number;
  firstFailedAt: string;
  lastFailedAt: string;
  resolvedAt: string | null;
  /** The job's data, as its replay will run it again. */
  payload: Record<string, unknown>;
}

/** A page of the failures inbox. */
export interface FailurePageDto {
  items: FailureDto[];
  total: number;
  limit: number;
  offset: number;
}

/** The answer to a replay of every open failure matching a filter. */
export interface BulkReplayDto {
  /** Ids of the failures whose job was enqueued again (now `replayed`). */
  replayed: string[];
  /** Failures whose replay could not be enqueued (they stay `open`), with the reason. */
  errors: Array<{ id: string; message: string }>;
  /** Open failures still matching after this call (replay again to take the next batch). */
  remaining: number;
}

/** The answer to `POST /admin/failures/dismiss`. */
export interface BulkDismissDto {
  /** How many failures this call dismissed. */
  dismissed: number;
  /** Their ids. */
  ids: string[];
  /** Named or matched failures left as they were (not open any more, or unknown), with why. */
  skipped: Array<{ id: string; message: string }>;
}

/** Entity -> DTO; dates as ISO 8601 strings. */
export function failureDto(failure: Failure): FailureDto {
  return {
    id: failure.id,
    shop: failure.shop,
    jobKind: failure.jobKind,
    subjectKey: failure.subjectKey,
    state: failure.state,
    error: { code: failure.errorCode, message: failure.errorMessage, retryable: failure.retryable },
    attempts: failure.attempts,
    firstFailedAt: failure.firstFailedAt.toISOString(),
    lastFailedAt: failure.lastFailedAt.toISOString(),
    resolvedAt: failure.resolvedAt?.toISOString() ?? null,
    payload: failure.payload,
  };
}
