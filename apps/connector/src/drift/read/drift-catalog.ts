import type { CatalogClient } from '#lib/catalog-client';
import type { ProductRecord } from '#lib/catalog-contract';
import { CATALOG_SCAN_PAGE_SIZE, scanCatalog } from '../../clients/catalog/catalog-keyset-scan.js';

/** The catalog side of one report, and what it cost. */
export interface DriftCatalog {
  records: ProductRecord[];
  /** Product searches sent: `floor(records / 500) + 1` (10,000 records: 21). */
  searches: number;
}

/**
 * Why: a report compares every record of the account (orphans carry any supplierSku: another
 * prefix, a `variant-sku` one), so the catalog is read whole, by the keyset scan at the largest
 * page the spec allows (500), at `bulk` priority within the account's budget: never a read per
 * record. The search count is returned so the report (and its test) can hold it to the budget.
 */
export async function readDriftCatalog(
  client: Pick<CatalogClient, 'searchProducts'>,
  pageSize = CATALOG_SCAN_PAGE_SIZE,
): Promise<DriftCatalog> {
  let searches = 0;
  const counted: Pick<CatalogClient, 'searchProducts'> = {
    searchProducts: (request, options) => {
      searches += 1;
      return client.searchProducts(request, options);
    },
  };
  const records: ProductRecord[] = [];
  for await (const page of scanCatalog(counted, pageSize)) records.push(...page);
  return { records, searches };
}
