import { createHash } from 'node:crypto';

export interface MetafieldRecord {
  id: number;
  /** `gid://shopify/Product/<id>` or `gid://shopify/ProductVariant/<id>`. */
  ownerId: string;
  namespace: string;
  key: string;
  type: string;
  value: string;
  createdAt: number;
  updatedAt: number;
}

/**
 * Metafields of one shop's products and variants, by owner gid. The compare digest changes
 * whenever the value or type does, which is what `metafieldsSet(compareDigest)` checks.
 */
export class MetafieldStore {
  private readonly byOwner = new Map<string, Map<string, MetafieldRecord>>();

  list(ownerId: string): MetafieldRecord[] {
    return [...(this.byOwner.get(ownerId)?.values() ?? [])];
  }

  find(ownerId: string, namespace: string, key: string): MetafieldRecord | undefined {
    return this.byOwner.get(ownerId)?.get(slot(namespace, key));
  }

  /** Every metafield of every owner. */
  *all(): Iterable<MetafieldRecord> {
    for (const owned of this.byOwner.values()) yield* owned.values();
  }

  findById(id: number): MetafieldRecord | undefined {
    for (const owned of this.byOwner.values()) {
      for (const record of owned.values()) if (record.id === id) return record;
    }
    return undefined;
  }

  put(record: MetafieldRecord): void {
    let owned = this.byOwner.get(record.ownerId);
    if (!owned) {
      owned = new Map();
      this.byOwner.set(record.ownerId, owned);
    }
    owned.set(slot(record.namespace, record.key), record);
  }

  delete(ownerId: string, namespace: string, key: string): MetafieldRecord | undefined {
    const owned = this.byOwner.get(ownerId);
    const record = owned?.get(slot(namespace, key));
    if (record) owned?.delete(slot(namespace, key));
    return record;
  }

  /** Drops every metafield of these owners (a deleted product and its variants). */
  deleteOwners(ownerIds: string[]): void {
    for (const ownerId of ownerIds) this.byOwner.delete(ownerId);
  }
}

/** An opaque digest of a metafield's current state. */
export function compareDigest(record: MetafieldRecord): string {
  return createHash('sha256')
    .update(`${record.id}\u0000${record.type}\u0000${record.value}\u0000${record.updatedAt}`)
    .digest('hex');
}

function slot(namespace: string, key: string): string {
  return `${namespace}\u0000${key}`;
}
