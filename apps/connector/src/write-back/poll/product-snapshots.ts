import type { ProductRecord } from '#lib/catalog-contract';
import { type RecordSnapshot, trimRecord } from '../store/record-snapshot.js';
import type { SearchProducts } from './poll-finished.js';
import { recheckWatchlist } from './review-watchlist.js';

export interface ProductSnapshotsInput {
  /** The products given work, each with its live skuIds (the sku map: own record and variants'). */
  products: ReadonlyMap<string, readonly string[]>;
  /** The records the poll has read already (walks and watchlist). */
  read: ReadonlyMap<string, ProductRecord>;
  /** The write-back attributes kept in each record. */
  attributes: readonly string[];
  /** When the poll read them (epoch ms). */
  at: number;
}

/**
 * The records of each product given work, for its push (`RecordSnapshot`): the poll returns
 * records, not products, so a product whose variant changed has its parent's and the other
 * variants' records read too, `skuId` `$in` 500 per search for all such products together
 * (none in a catch-up, where every record of every product was found). A skuId the catalog no
 * longer has is recorded as null, as the push's own search would have left it.
 */
export async function readProductSnapshots(
  search: SearchProducts,
  input: ProductSnapshotsInput,
): Promise<{ snapshots: Map<string, RecordSnapshot>; calls: number }> {
  const missing = [...input.products.values()].flat().filter((skuId) => !input.read.has(skuId));
  const extra = await recheckWatchlist(search, missing);
  const records = new Map(input.read);
  for (const record of extra.records) records.set(record.skuId, record);
  const kept = new Set(input.attributes);
  const snapshots = new Map<string, RecordSnapshot>();
  for (const [productId, skuIds] of input.products) {
    const snapshot: RecordSnapshot = { at: input.at, attributes: [...kept].sort(), records: {} };
    for (const skuId of skuIds) {
      const record = records.get(skuId);
      snapshot.records[skuId] = record ? trimRecord(record, kept) : null;
    }
    snapshots.set(productId, snapshot);
  }
  return { snapshots, calls: extra.calls };
}
