import type { CatalogClient } from '#lib/catalog-client';
import type { ProductRecord } from '#lib/catalog-contract';

/** The most records the product search answers per call (spec, "Limits"). */
export const CATALOG_SCAN_PAGE_SIZE = 500;

/**
 * Every record of the catalog account (products, parents and variants), page by page, by keyset:
 * sorted by `createdAt`, each call asks for `createdAt >= last` and excludes the `skuId`s already
 * seen at `last`. Offset paging over a moving set skips and repeats records (the spec promises no
 * order among equal `createdAt`s, and records created or deleted meanwhile shift the offsets);
 * a keyset does neither: a record created during the scan comes at the end, a deleted one is
 * simply not seen. Searches run at `bulk` priority, behind syncs, within the account's budget.
 */
export async function* scanCatalog(
  client: Pick<CatalogClient, 'searchProducts'>,
  pageSize = CATALOG_SCAN_PAGE_SIZE,
): AsyncGenerator<ProductRecord[], void, undefined> {
  let last: number | null = null;
  let seenAtLast: string[] = [];
  for (;;) {
    const page = await client.searchProducts(
      {
        filter:
          last === null
            ? {}
            : {
                createdAt: { $gte: last },
                ...(seenAtLast.length > 0 ? { skuId: { $nin: seenAtLast } } : {}),
              },
        sort: { field: 'createdAt', order: 'ASC' },
        pagination: { offset: 0, limit: pageSize },
      },
      { priority: 'bulk' },
    );
    const records = page.products;
    if (records.length === 0) return;
    yield records;
    for (const record of records) {
      if (record.createdAt !== last) {
        last = record.createdAt;
        seenAtLast = [];
      }
      seenAtLast.push(record.skuId);
    }
    if (records.length < pageSize && !page.pagination.hasMore) return;
  }
}
