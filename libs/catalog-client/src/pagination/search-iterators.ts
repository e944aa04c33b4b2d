import { CatalogLimits, type PaginationResponse } from '#lib/catalog-contract';

export interface Page<T> {
  items: T[];
  pagination: PaginationResponse;
}

/**
 * Walks an offset-paged search, `pageSize` (at most 500) items per call, yielding items one by
 * one. Stops at `hasMore: false` or an empty page. Pages are fetched lazily: breaking out of the
 * loop stops the calls.
 */
export async function* paginate<T>(
  fetchPage: (offset: number, limit: number) => Promise<Page<T>>,
  pageSize: number = CatalogLimits.SEARCH_PAGE_SIZE_MAX,
  startOffset = 0,
): AsyncGenerator<T, void, undefined> {
  const limit = Math.min(Math.max(1, Math.floor(pageSize)), CatalogLimits.SEARCH_PAGE_SIZE_MAX);
  let offset = startOffset;
  for (;;) {
    const page = await fetchPage(offset, limit);
    yield* page.items;
    if (!page.pagination.hasMore || page.items.length === 0) return;
    offset += page.items.length;
  }
}
