import type { ProductRecord } from '#lib/catalog-contract';

/**
 * The catalog records of one Shopify product as a poll read them, stored with the product's push
 * work (`enrichment_outbox.records`): the push plans from them instead of searching the catalog
 * again for the records the poll has just read. Only the write-back attributes are kept.
 */
export interface RecordSnapshot {
  /** When the poll read them (epoch ms, the connector's clock). */
  at: number;
  /** The write-back attributes kept (a push for a mapping with others searches instead). */
  attributes: string[];
  /** Every live skuId of the product's sku map rows: its record, or null (not in the catalog). */
  records: Record<string, ProductRecord | null>;
}

/** A record with only `attributes` among its attribute entries: what the write-back reads. */
export function trimRecord(record: ProductRecord, attributes: ReadonlySet<string>): ProductRecord {
  return { ...record, attributes: record.attributes.filter((a) => attributes.has(a.key)) };
}

/** What a push needs for a snapshot to stand in for a catalog search. */
export interface SnapshotUse {
  /** The product's live skuIds (sku map): each must be in the snapshot. */
  skuIds: readonly string[];
  /** The write-back attributes of the shop's mapping now: each must have been kept. */
  attributes: readonly string[];
  now: number;
  /** How old a snapshot may be (`CONNECTOR_ENRICHMENT_SNAPSHOT_MAX_AGE_MS`). */
  maxAgeMs: number;
}

/**
 * The product's records from the snapshot, or null when the push must search: no snapshot, one
 * older than `maxAgeMs` (a review made since would not be in it), or one that does not cover the
 * product's records or the mapping's attributes as they are now.
 */
export function recordsFromSnapshot(
  snapshot: RecordSnapshot | null | undefined,
  use: SnapshotUse,
): Map<string, ProductRecord> | null {
  if (!snapshot || use.now - snapshot.at > use.maxAgeMs || snapshot.at > use.now) return null;
  const kept = new Set(snapshot.attributes);
  if (!use.attributes.every((a) => kept.has(a))) return null;
  if (!use.skuIds.every((s) => Object.hasOwn(snapshot.records, s))) return null;
  const records = new Map<string, ProductRecord>();
  for (const skuId of use.skuIds) {
    const record = snapshot.records[skuId];
    if (record) records.set(skuId, record);
  }
  return records;
}
