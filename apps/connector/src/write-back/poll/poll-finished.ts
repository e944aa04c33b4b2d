import {
  CatalogLimits,
  type EnrichmentStatus,
  type ProductFilter,
  type ProductRecord,
  type ProductSearchRequest,
  type ProductSearchResponse,
} from '#lib/catalog-contract';

/** The product search the poller calls (`CatalogClient.searchProducts` fits). */
export type SearchProducts = (body: ProductSearchRequest) => Promise<ProductSearchResponse>;

/** The timestamps the poller can walk: both are search filters and sort fields in the spec. */
export type PollField = 'dataEnrichment.completedAt' | 'updatedAt';

export interface PollOptions {
  field: PollField;
  /**
   * Every record whose `field` is at most this was seen by an earlier poll (null: none yet).
   * The search starts `overlapMs` before it.
   */
  checkpoint: number | null;
  /**
   * How far behind the checkpoint to look again, for values that became visible only after the
   * checkpoint passed them (a slow write on the catalog's side). Records found again are
   * deduplicated by the caller's value hashes (`recordContentHash`).
   */
  overlapMs: number;
  /** Enrichment statuses to find (completedAt polls; default FINISHED). Ignored for updatedAt. */
  statuses?: readonly EnrichmentStatus[];
  /** Page size, at most 500 (the spec's maximum). */
  pageSize?: number;
  /** Stop after this many calls (the next poll goes on from the returned checkpoint). */
  maxCalls?: number;
  /**
   * completedAt walks only: find only records whose `updatedAt` is at most this (`$lte`). The
   * poller's `updatedAt` walk of the same poll has returned every record above it, so the
   * `completedAt` walk need not page through them again (`enrichment-poller.service.ts`).
   */
  updatedAtMost?: number;
  /**
   * Takes each page as it is read, instead of the result holding every record: a poll then
   * holds one page at a time, however many records changed (`PollChunks`). The result's
   * `records` is empty; a record that moved while the walk ran may come in two pages.
   */
  onPage?: (records: readonly ProductRecord[]) => Promise<void>;
}

export interface PollResult {
  /** Each record at most once, in ascending order of `field` (none when `onPage` took them). */
  records: ProductRecord[];
  /** Store once the work found is committed: where the next poll starts. */
  checkpoint: number | null;
  /** Search calls made. */
  calls: number;
  /** False when `maxCalls` stopped the walk before the end. */
  complete: boolean;
}

/**
 * Finds the records whose `field` passed the checkpoint, in ascending order, 500 per call,
 * without offset paging: the set moves while it is walked, and the spec promises no order among
 * equal values, so an offset would skip or repeat records that tie (the catalog sandbox shuffles
 * ties per request). Instead each page restarts from the last value seen (`$gte`) and excludes
 * the records already seen at that value (`skuId` `$nin`), which stays exact with any number of
 * records sharing one value, 500 and more. The first page asks `$gt` the checkpoint less the
 * overlap. The returned checkpoint is the highest value all of whose records were seen.
 */
export async function pollChanged(search: SearchProducts, options: PollOptions): Promise<PollResult> {
  const limit = Math.min(Math.max(1, options.pageSize ?? CatalogLimits.SEARCH_PAGE_SIZE_MAX), 500);
  const start = options.checkpoint === null ? null : options.checkpoint - options.overlapMs;
  const found = new Map<string, ProductRecord>();
  let at: number | null = start;
  let inclusive = false;
  let seenAtValue: string[] = [];
  let checkpoint = options.checkpoint;
  let calls = 0;
  for (;;) {
    if (options.maxCalls !== undefined && calls >= options.maxCalls) {
      // Everything strictly below `at` was seen; the records at `at` are looked at again next time.
      const safe = inclusive && at !== null ? at - 1 : at;
      return { records: [...found.values()], checkpoint: maxOf(checkpoint, safe), calls, complete: false };
    }
    const range = at === null ? undefined : inclusive ? { $gte: at } : { $gt: at };
    const response = await search({
      filter: filterFor(options, range, seenAtValue),
      sort: { field: options.field, order: 'ASC' },
      pagination: { limit, offset: 0 },
    });
    calls += 1;
    const page = response.products;
    for (const record of page) {
      const value = timestampOf(record, options.field);
      if (value === undefined || (at !== null && (value < at || (!inclusive && value === at)))) {
        throw new Error(
          `catalog search answered ${record.skuId} with ${options.field} ${String(value)}, outside the range asked`,
        );
      }
      if (options.onPage) continue;
      found.delete(record.skuId);
      found.set(record.skuId, record);
    }
    if (options.onPage && page.length > 0) await options.onPage(page);
    if (page.length === 0 || !response.pagination.hasMore) {
      const last = page.length > 0 ? timestampOf(page.at(-1) as ProductRecord, options.field) : undefined;
      return {
        records: [...found.values()],
        checkpoint: maxOf(checkpoint, last ?? null),
        calls,
        complete: true,
      };
    }
    const last = timestampOf(page.at(-1) as ProductRecord, options.field) as number;
    const atLast = page.filter((r) => timestampOf(r, options.field) === last).map((r) => r.skuId);
    if (inclusive && at === last) seenAtValue = [...seenAtValue, ...atLast];
    else {
      // Every value below `last` is complete now.
      checkpoint = maxOf(checkpoint, last - 1);
      seenAtValue = atLast;
    }
    at = last;
    inclusive = true;
  }
}

function filterFor(
  options: PollOptions,
  range: { $gt: number } | { $gte: number } | undefined,
  exclude: readonly string[],
): ProductFilter {
  const filter: ProductFilter = {};
  if (options.field === 'updatedAt') {
    if (range) filter.updatedAt = range;
  } else {
    filter.dataEnrichment = {
      status: { $in: [...(options.statuses ?? ['FINISHED'])] },
      completedAt: range ?? { $gte: 0 },
    };
    if (options.updatedAtMost !== undefined) filter.updatedAt = { $lte: options.updatedAtMost };
  }
  if (exclude.length > 0) filter.skuId = { $nin: [...exclude] };
  return filter;
}

function timestampOf(record: ProductRecord, field: PollField): number | undefined {
  return field === 'updatedAt' ? record.updatedAt : record.dataEnrichment?.completedAt;
}

function maxOf(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.max(a, b);
}
