import type { EnrichmentStatus } from '#lib/catalog-contract';
import type { Account } from '../accounts/account.js';
import type { EnrichmentError } from './enricher.js';

/** A run's record: the product's `dataEnrichment.status`, or DELETED when it went during the run. */
export type RunItemStatus = EnrichmentStatus | 'DELETED';

export interface EnrichmentRunItem {
  skuId: string;
  taskId: string;
  status: RunItemStatus;
  filled: string[];
  classifiedCategory?: string;
  dropped?: string[];
  error?: EnrichmentError;
  completedAt?: number;
}

/**
 * One portal enrichment run. `auto` runs advance one step every `CATALOG_SANDBOX_ENRICHMENT_STEP_MS`
 * of the sandbox clock; `manual` runs advance only on POST .../step. A step finishes the records
 * in progress, then moves the next `batchSize` queued records to IN_PROGRESS.
 */
export interface EnrichmentRun {
  runId: string;
  account: Account;
  mode: 'auto' | 'manual';
  batchSize: number;
  createdAt: number;
  items: EnrichmentRunItem[];
  /** Index of the first item still QUEUED. */
  nextQueued: number;
  inProgress: EnrichmentRunItem[];
  steps: number;
  completedAt?: number;
}

export function isRunDone(run: EnrichmentRun): boolean {
  return run.completedAt !== undefined;
}

/** What the portal shows of a run. */
export function describeRun(run: EnrichmentRun, withItems: boolean) {
  const counts: Record<RunItemStatus, number> = {
    QUEUED: 0,
    IN_PROGRESS: 0,
    FINISHED: 0,
    FAILED: 0,
    SKIPPED: 0,
    DELETED: 0,
  };
  for (const item of run.items) counts[item.status] += 1;
  return {
    runId: run.runId,
    mode: run.mode,
    batchSize: run.batchSize,
    status: isRunDone(run) ? 'DONE' : 'RUNNING',
    createdAt: run.createdAt,
    ...(run.completedAt === undefined ? {} : { completedAt: run.completedAt }),
    steps: run.steps,
    total: run.items.length,
    counts,
    ...(withItems ? { items: run.items.map((item) => ({ ...item })) } : {}),
  };
}
