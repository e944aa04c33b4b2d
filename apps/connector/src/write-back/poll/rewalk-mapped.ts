import type { ProductRecord } from '#lib/catalog-contract';
import type { SearchProducts } from './poll-finished.js';
import { WATCHLIST_CHUNK } from './review-watchlist.js';

/** One keyset page of mapped skuIds after `after` (ascending), at most `limit`. */
export type MappedSkuIdsPage = (after: string | null, limit: number) => Promise<string[]>;

/**
 * Reads every mapped record again, for reviews changed after the fact: a reject of an approved
 * value, or an approve of a rejected one, moves neither `updatedAt` nor `completedAt` (the spec
 * promises neither), and the record left the watchlist once nothing awaited review, so no walk
 * would see it. Pages the sku map by skuId (keyset, never offset) and searches each page by
 * `skuId` `$in`: 500 records per search, 10,000 records in 20. The caller hashes what it reads
 * (`recordContentHash`): only a changed review gives work.
 */
export async function rewalkMapped(
  search: SearchProducts,
  page: MappedSkuIdsPage,
  onPage: (records: readonly ProductRecord[]) => Promise<void>,
): Promise<{ calls: number }> {
  let calls = 0;
  let after: string | null = null;
  for (;;) {
    const skuIds = await page(after, WATCHLIST_CHUNK);
    if (skuIds.length === 0) break;
    const response = await search({
      filter: { skuId: { $in: skuIds } },
      pagination: { limit: WATCHLIST_CHUNK, offset: 0 },
    });
    calls += 1;
    const wanted = new Set(skuIds);
    // Each page goes to `onPage` and nothing is held (`PollChunks`).
    await onPage(response.products.filter((r) => wanted.has(r.skuId)));
    if (skuIds.length < WATCHLIST_CHUNK) break;
    after = skuIds.at(-1) as string;
  }
  return { calls };
}
