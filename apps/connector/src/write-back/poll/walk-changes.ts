import type { ProductRecord } from '#lib/catalog-contract';
import { type PollField, pollChanged, type SearchProducts } from './poll-finished.js';

/** Where the previous poll left both walks (null: never walked). */
export type WalkCheckpoints = Record<PollField, number | null>;

/** Per field, whether the previous poll's walk stopped at `maxCalls` (its checkpoint is where it stopped). */
export type WalkCutShort = Record<PollField, boolean>;

export interface WalkChangesOptions {
  checkpoints: WalkCheckpoints;
  /** The previous poll's walks cut short: those resume at their checkpoint, without the overlap. */
  resume?: Partial<WalkCutShort>;
  overlapMs: number;
  /** Search calls per walk at most (`CONNECTOR_ENRICHMENT_POLL_MAX_CALLS`). */
  maxCalls?: number;
  pageSize?: number;
  /**
   * Takes each page as it is read (`PollOptions.onPage`): the walk holds none (`PollChunks`). A
   * record that moved while the walk ran may come in two pages.
   */
  onPage: (records: readonly ProductRecord[]) => Promise<void>;
}

export interface ChangeWalk {
  /** The new checkpoints, to commit with the work found. */
  checkpoints: WalkCheckpoints;
  /** The walks this poll stopped at `maxCalls`: store with the checkpoints, pass as `resume`. */
  cutShort: WalkCutShort;
  calls: number;
}

/**
 * Finds finished enrichments (`dataEnrichment.completedAt` past its checkpoint, status FINISHED)
 * and approvals (`updatedAt` past its checkpoint: the fast path; the review watchlist is the sure
 * one), paging through each changed record once, ~one search per 500.
 *
 * The spec promises neither that a finished enrichment moves `updatedAt` nor that it does not
 * (only a PATCH is said to; the catalog sandbox leaves it), so neither walk can stand in for the
 * other, and the search has no `$or`. They split the records instead: the `updatedAt` walk first
 * returns every record with `updatedAt` above its start (the checkpoint less the overlap); the
 * `completedAt` walk then asks only for records with `updatedAt` at most that start (`$lte`), the
 * others having just been returned. A record whose enrichment finished is found exactly once,
 * whichever field moved; a record both walks would return is paged through by one.
 *
 * The first poll (no `updatedAt` checkpoint) walks `updatedAt` from the beginning: every record
 * in the catalog, the finished ones among them, so there is no `completedAt` walk at all, and its
 * checkpoint becomes the highest `completedAt` seen (of FINISHED records). An enrichment that
 * finishes while that walk runs, behind it and without moving `updatedAt`, has a `completedAt`
 * later than the walk's start, so the next poll's overlap window (5 min by default, longer than a
 * walk) finds it. A catch-up of 10,000 records is thus 20 searches of 500 (and an empty one when
 * the last page is full and says more), instead of two walks of 20. Later polls likewise let the
 * `completedAt` checkpoint pass the records the `updatedAt` walk returned, when the `completedAt`
 * walk was complete (else records below its checkpoint may remain).
 *
 * When a walk stops at `maxCalls`, the unseen records lie above its checkpoint and the next poll
 * goes on from there (`cutShort`, then `resume`: from the checkpoint itself, without the overlap,
 * which that walk already covered; else a window holding more than `maxCalls` pages of records
 * would be re-read by every poll and the checkpoint never move); a record the `completedAt` walk
 * skipped for its `updatedAt` is above the `updatedAt` checkpoint, so the next `updatedAt` walk
 * returns it. Once a walk completes, the next one has its overlap again.
 */
export async function walkChanges(search: SearchProducts, options: WalkChangesOptions): Promise<ChangeWalk> {
  const { maxCalls, pageSize } = options;
  const stored = options.checkpoints;
  const overlapOf = (field: PollField) => (options.resume?.[field] === true ? 0 : options.overlapMs);
  const onPage = options.onPage;
  // The highest completedAt among the records the updatedAt walk returned: they were all seen.
  let seen: number | null = null;
  const updated = await pollChanged(search, {
    field: 'updatedAt',
    checkpoint: stored.updatedAt,
    overlapMs: overlapOf('updatedAt'),
    maxCalls,
    pageSize,
    onPage: async (page) => {
      seen = maxOf(seen, highestFinished(page));
      await onPage(page);
    },
  });
  let calls = updated.calls;
  let completedCheckpoint: number | null;
  let completedCut = false;
  if (stored.updatedAt === null) {
    completedCheckpoint = maxOf(stored['dataEnrichment.completedAt'], seen);
  } else {
    const completed = await pollChanged(search, {
      field: 'dataEnrichment.completedAt',
      checkpoint: stored['dataEnrichment.completedAt'],
      overlapMs: overlapOf('dataEnrichment.completedAt'),
      maxCalls,
      pageSize,
      updatedAtMost: stored.updatedAt - overlapOf('updatedAt'),
      onPage,
    });
    calls += completed.calls;
    completedCut = !completed.complete;
    // Complete, it returned every record below the updatedAt walk's start: the checkpoint may
    // pass the others' completedAt too. Stopped early, records below may remain: it may not.
    completedCheckpoint = completed.complete ? maxOf(completed.checkpoint, seen) : completed.checkpoint;
  }
  return {
    checkpoints: { updatedAt: updated.checkpoint, 'dataEnrichment.completedAt': completedCheckpoint },
    cutShort: { updatedAt: !updated.complete, 'dataEnrichment.completedAt': completedCut },
    calls,
  };
}

function highestFinished(records: readonly ProductRecord[]): number | null {
  let highest: number | null = null;
  for (const record of records) {
    const at = record.dataEnrichment?.status === 'FINISHED' ? record.dataEnrichment.completedAt : undefined;
    if (at !== undefined && (highest === null || at > highest)) highest = at;
  }
  return highest;
}

function maxOf(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.max(a, b);
}
