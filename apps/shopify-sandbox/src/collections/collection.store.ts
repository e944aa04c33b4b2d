import type { ProductRecord } from '../products/product.model.js';
import type { ProductStore } from '../products/product.store.js';
import { matchesRules, type SmartRule } from './smart-rules.js';

export type CollectionKind = 'custom' | 'smart';

/** A product placed in a custom collection by hand (REST `Collect`). */
export interface CollectRecord {
  id: number;
  productId: number;
  position: number;
  createdAt: number;
  updatedAt: number;
}

/** One collection. Times are epoch milliseconds. */
export interface CollectionRecord {
  id: number;
  kind: CollectionKind;
  title: string;
  handle: string;
  bodyHtml: string | null;
  /** REST form: `manual`, `best-selling`, `alpha-asc`, `alpha-desc`, `price-asc`, … */
  sortOrder: string;
  templateSuffix: string | null;
  publishedAt: number | null;
  publishedScope: 'web' | 'global';
  createdAt: number;
  updatedAt: number;
  /** Smart collections only. */
  rules: SmartRule[];
  disjunctive: boolean;
  /** Custom collections only, in manual order. */
  collects: CollectRecord[];
}

export type CollectionEventType = 'create' | 'update' | 'delete';

/** A change to one collection, with a snapshot taken when it happened. */
export interface CollectionEvent {
  type: CollectionEventType;
  collection: CollectionRecord;
  at: number;
}

/**
 * One shop's collections. Membership of a smart collection is computed from its rules each
 * time it is read, so it follows product changes at once; a custom collection holds collects.
 * Putting a product in or out of a collection changes the collection, never the product.
 */
export class CollectionStore {
  private readonly collections = new Map<number, CollectionRecord>();
  private readonly listeners: Array<(event: CollectionEvent) => void> = [];

  constructor(private readonly products: ProductStore) {}

  onChange(listener: (event: CollectionEvent) => void): void {
    this.listeners.push(listener);
  }

  get(id: number): CollectionRecord | undefined {
    return this.collections.get(id);
  }

  /** Every collection, oldest first. */
  list(): CollectionRecord[] {
    return [...this.collections.values()];
  }

  byHandle(handle: string): CollectionRecord | undefined {
    return this.list().find((c) => c.handle === handle);
  }

  /** A handle no other collection uses: `sale`, then `sale-1`, `sale-2`... */
  uniqueHandle(wanted: string, ownId?: number): string {
    const taken = new Set(
      this.list()
        .filter((c) => c.id !== ownId)
        .map((c) => c.handle),
    );
    if (!taken.has(wanted)) return wanted;
    for (let n = 1; ; n++) if (!taken.has(`${wanted}-${n}`)) return `${wanted}-${n}`;
  }

  /** The products in a collection: collects in order, or the products its rules match. */
  productsOf(collection: CollectionRecord): ProductRecord[] {
    if (collection.kind === 'smart') {
      return this.products.list().filter((p) => matchesRules(p, collection.rules, collection.disjunctive));
    }
    return collection.collects
      .map((collect) => this.products.get(collect.productId))
      .filter((p): p is ProductRecord => p !== undefined);
  }

  /** The collections a product is in, oldest first. */
  collectionsOf(product: ProductRecord): CollectionRecord[] {
    return this.list().filter((c) =>
      c.kind === 'smart'
        ? matchesRules(product, c.rules, c.disjunctive)
        : c.collects.some((collect) => collect.productId === product.id),
    );
  }

  /** Where a collect is, with its collection. */
  findCollect(collectId: number): { collection: CollectionRecord; collect: CollectRecord } | undefined {
    for (const collection of this.collections.values()) {
      const collect = collection.collects.find((c) => c.id === collectId);
      if (collect) return { collection, collect };
    }
    return undefined;
  }

  insert(collection: CollectionRecord): void {
    this.collections.set(collection.id, collection);
    this.emit('create', collection, collection.createdAt);
  }

  /** Records a change made to a stored collection: stamps `updatedAt` and tells listeners. */
  save(collection: CollectionRecord, at: number): void {
    if (this.collections.get(collection.id) !== collection)
      throw new Error(`Collection ${collection.id} is not in this store`);
    collection.updatedAt = at;
    this.emit('update', collection, at);
  }

  remove(id: number, at: number): CollectionRecord | undefined {
    const collection = this.collections.get(id);
    if (!collection) return undefined;
    this.collections.delete(id);
    this.emit('delete', collection, at);
    return collection;
  }

  /** Drops a deleted product's collects, silently (Shopify documents no webhook for it). */
  forgetProduct(productId: number): void {
    for (const collection of this.collections.values()) {
      collection.collects = collection.collects.filter((c) => c.productId !== productId);
    }
  }

  private emit(type: CollectionEventType, collection: CollectionRecord, at: number): void {
    const event: CollectionEvent = { type, collection: structuredClone(collection), at };
    for (const listener of this.listeners) listener(event);
  }
}
