import type { ProductRecord } from '#lib/catalog-contract';
import { digest } from '../../mapping/index.js';
import type { SearchProducts } from './poll-finished.js';

/** `skuId` `$in` lists: one search per 500 (the spec's page maximum), so one page each. */
export const WATCHLIST_CHUNK = 500;

/**
 * This poll's turn of the watchlist: at most `maxCalls` searches' worth (`WATCHLIST_CHUNK` each)
 * from `offset` on, wrapping round, and where the next poll starts. A watchlist within that many
 * searches is re-checked whole at every poll (an approval the review does not date is pushed
 * within a poll interval); a larger one (a bulk enrichment of a big shop awaiting review) is
 * re-checked a turn at a time, so its cost per poll stays bounded by the poll's own limit.
 */
export function watchlistTurn(
  skuIds: readonly string[],
  offset: number,
  maxCalls: number,
): { due: string[]; nextOffset: number } {
  const size = maxCalls * WATCHLIST_CHUNK;
  if (skuIds.length <= size) return { due: [...skuIds], nextOffset: 0 };
  const start = Number.isInteger(offset) && offset > 0 && offset < skuIds.length ? offset : 0;
  const due = skuIds.slice(start, start + size);
  if (due.length < size) due.push(...skuIds.slice(0, size - due.length));
  return { due, nextOffset: (start + size) % skuIds.length };
}

/**
 * Re-reads watched records: approvals happen later in the portal, and the spec does not promise
 * that a review changes `completedAt` or `updatedAt`, so records with write-back attributes
 * still awaiting review are searched by `skuId` `$in`, 500 per call. `missing` lists the skuIds
 * the catalog no longer has (deleted): drop them from the watchlist.
 */
export async function recheckWatchlist(
  search: SearchProducts,
  skuIds: readonly string[],
): Promise<{ records: ProductRecord[]; missing: string[]; calls: number }> {
  const unique = [...new Set(skuIds)];
  const records: ProductRecord[] = [];
  let calls = 0;
  for (let i = 0; i < unique.length; i += WATCHLIST_CHUNK) {
    const chunk = unique.slice(i, i + WATCHLIST_CHUNK);
    const response = await search({
      filter: { skuId: { $in: chunk } },
      pagination: { limit: WATCHLIST_CHUNK, offset: 0 },
    });
    calls += 1;
    records.push(...response.products.filter((r) => chunk.includes(r.skuId)));
  }
  const found = new Set(records.map((r) => r.skuId));
  return { records, missing: unique.filter((s) => !found.has(s)), calls };
}

/**
 * The write-back attributes of a record still awaiting review (`blame: ENRICHMENT`). While any
 * remain, the record stays on the watchlist (until it ages out); when none do, it leaves.
 */
export function awaitingReview(record: ProductRecord, attributes: Iterable<string>): string[] {
  const wanted = new Set(attributes);
  return record.attributes
    .filter((a) => wanted.has(a.key) && a.blame === 'ENRICHMENT' && a.value !== null)
    .map((a) => a.key);
}

/**
 * A hash of what the write-back reads from a record: its write-back attributes (value and blame)
 * and enrichment state. A record found again (the poll's overlap window, the watchlist, the
 * updatedAt fast path) whose hash is the one stored is not worked on again.
 */
export function recordContentHash(record: ProductRecord, attributes: Iterable<string>): string {
  const wanted = new Set(attributes);
  return digest([
    record.skuId,
    record.dataEnrichment?.status ?? null,
    record.dataEnrichment?.completedAt ?? null,
    record.attributes
      .filter((a) => wanted.has(a.key))
      .map((a) => [a.key, a.value ?? null, a.blame ?? null])
      .sort(([x], [y]) => String(x).localeCompare(String(y))),
  ]);
}
