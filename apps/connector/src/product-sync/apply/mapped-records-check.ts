import type { CatalogClient } from '#lib/catalog-client';
import type { SkuMapRow } from '../sku-map/sku-map-row.entity.js';
import type { SyncRun } from './sync-run.js';

/** skuIds per search (the catalog's page limit). */
const SEARCH_PAGE = 500;

/**
 * Why: a sync plans from the sku map alone, so a record deleted in the catalog behind the
 * connector is only found when a call on it fails; an unchanged product makes no call and the
 * record stays missing. An operator's sync (and its dry run, which must plan what it sends)
 * first checks that the product's live mapped records exist: one `skuId` `$in` search (per 500
 * records). Answers the live rows whose record the catalog no longer has; each search lands in
 * the run's calls.
 */
export async function goneMappedRecords(
  client: CatalogClient,
  rows: readonly SkuMapRow[],
  run: SyncRun,
  interactive: boolean,
): Promise<SkuMapRow[]> {
  const live = rows.filter((row) => row.state === 'live' && row.skuId !== null);
  const present = new Set<string>();
  for (let i = 0; i < live.length; i += SEARCH_PAGE) {
    const chunk = live.slice(i, i + SEARCH_PAGE);
    const route = { method: 'POST', path: '/v1/products/search', supplierSku: chunk[0]?.supplierSku ?? '' };
    try {
      const found = await client.searchProducts(
        {
          filter: { skuId: { $in: chunk.map((row) => row.skuId as string) } },
          pagination: { limit: SEARCH_PAGE, offset: 0 },
        },
        interactive ? { priority: 'interactive' } : {},
      );
      run.calls.push({ ...route, status: 200, code: null });
      for (const product of found.products) present.add(product.skuId);
    } catch (error) {
      const failure = error as { status?: number; code?: string };
      run.calls.push({ ...route, status: failure.status ?? null, code: failure.code ?? 'unexpected_error' });
      throw error;
    }
  }
  return live.filter((row) => !present.has(row.skuId as string));
}
