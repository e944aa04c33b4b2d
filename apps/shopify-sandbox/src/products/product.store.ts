import { Clock } from '#lib/clock';
import type { ProductRecord, VariantRecord } from './product.model.js';

export type ProductEventType = 'create' | 'update' | 'delete';

/** A change to one product, with a snapshot taken when it happened. */
export interface ProductEvent {
  type: ProductEventType;
  product: ProductRecord;
  /** Epoch ms of the change. */
  at: number;
}

export type ProductEventListener = (event: ProductEvent) => void;

/**
 * One shop's products, in memory. Writers change a record through `insert`, `save` and
 * `remove`; each call stamps `updatedAt` and tells listeners, which is how webhooks fire.
 */
export class ProductStore {
  private readonly products = new Map<number, ProductRecord>();
  private readonly listeners: ProductEventListener[] = [];

  constructor(private readonly clock: Clock) {}

  onChange(listener: ProductEventListener): void {
    this.listeners.push(listener);
  }

  get(id: number): ProductRecord | undefined {
    return this.products.get(id);
  }

  /** Every product, oldest first. */
  list(): ProductRecord[] {
    return [...this.products.values()];
  }

  get size(): number {
    return this.products.size;
  }

  findVariant(variantId: number): { product: ProductRecord; variant: VariantRecord } | undefined {
    for (const product of this.products.values()) {
      const variant = product.variants.find((v) => v.id === variantId);
      if (variant) return { product, variant };
    }
    return undefined;
  }

  findByInventoryItem(
    inventoryItemId: number,
  ): { product: ProductRecord; variant: VariantRecord } | undefined {
    for (const product of this.products.values()) {
      const variant = product.variants.find((v) => v.inventoryItemId === inventoryItemId);
      if (variant) return { product, variant };
    }
    return undefined;
  }

  /** A handle no other product of this shop uses: `shirt`, then `shirt-1`, `shirt-2`... */
  uniqueHandle(wanted: string, ownId?: number): string {
    const taken = new Set([...this.products.values()].filter((p) => p.id !== ownId).map((p) => p.handle));
    if (!taken.has(wanted)) return wanted;
    for (let n = 1; ; n++) if (!taken.has(`${wanted}-${n}`)) return `${wanted}-${n}`;
  }

  insert(product: ProductRecord): void {
    this.products.set(product.id, product);
    this.emit('create', product);
  }

  /** Records a change already made to `product` (which must be stored) and tells listeners. */
  save(product: ProductRecord): void {
    if (this.products.get(product.id) !== product)
      throw new Error(`Product ${product.id} is not in this store`);
    product.updatedAt = this.clock.now();
    this.emit('update', product);
  }

  remove(id: number): ProductRecord | undefined {
    const product = this.products.get(id);
    if (!product) return undefined;
    this.products.delete(id);
    this.emit('delete', product);
    return product;
  }

  private emit(type: ProductEventType, product: ProductRecord): void {
    const event: ProductEvent = { type, product: structuredClone(product), at: this.clock.now() };
    for (const listener of this.listeners) listener(event);
  }
}
