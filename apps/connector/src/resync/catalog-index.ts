import type { ProductRecord } from '#lib/catalog-contract';
import type { AttributeSnapshot } from '../product-sync/plan/index.js';
import type { LinkMatch } from './link-matcher.js';

/** A catalog record as linking keeps it: what the map needs, nothing more. */
export interface IndexedRecord {
  skuId: string;
  supplierSku: string;
  parentSkuId: string | null;
  /** The record's own values (inherited ones left out): the map's snapshot once linked. */
  snapshot: AttributeSnapshot;
}

/**
 * The catalog account's records by match key, built from a keyset scan. Records the map already
 * holds (for any shop) are never matched again.
 */
export class CatalogIndex {
  private readonly byKey = new Map<string, IndexedRecord[]>();
  private readonly bySkuId = new Map<string, IndexedRecord>();

  constructor(
    private readonly field: LinkMatch['catalog'],
    private readonly mappedSkuIds: ReadonlySet<string>,
  ) {}

  add(records: readonly ProductRecord[]): void {
    for (const record of records) {
      if (this.mappedSkuIds.has(record.skuId)) continue;
      const indexed: IndexedRecord = {
        skuId: record.skuId,
        supplierSku: record.supplierSku,
        parentSkuId: record.parentSkuId ?? null,
        snapshot: ownValues(record),
      };
      this.bySkuId.set(record.skuId, indexed);
      const key = this.keyOf(record);
      if (key === null) continue;
      const list = this.byKey.get(key) ?? [];
      list.push(indexed);
      this.byKey.set(key, list);
    }
  }

  candidates(key: string | null, variants: boolean): IndexedRecord[] {
    const wanted = normalise(key);
    if (wanted === null) return [];
    return (this.byKey.get(wanted) ?? []).filter((r) => (r.parentSkuId !== null) === variants);
  }

  record(skuId: string): IndexedRecord | undefined {
    return this.bySkuId.get(skuId);
  }

  get size(): number {
    return this.bySkuId.size;
  }

  private keyOf(record: ProductRecord): string | null {
    if (this.field === 'supplierSku') return normalise(record.supplierSku);
    const gtin = record.attributes.find((a) => a.key === 'gtin' && a.inherited !== true)?.value ?? null;
    return typeof gtin === 'string' ? normalise(gtin) : null;
  }
}

/** Keys compare trimmed; a blank key matches nothing. */
export function normalise(key: string | null | undefined): string | null {
  const trimmed = key?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/** A record's own non-empty values, as the sync's snapshot holds them. */
function ownValues(record: ProductRecord): AttributeSnapshot {
  const snapshot: Record<string, string | string[]> = {};
  for (const entry of record.attributes) {
    if (entry.inherited === true || entry.value === null) continue;
    if (Array.isArray(entry.value) && entry.value.length === 0) continue;
    snapshot[entry.key] = entry.value;
  }
  return snapshot;
}
