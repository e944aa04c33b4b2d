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

/** How the store treats writes (from `config.webhooks`) and what else counts as product state. */
export interface ProductStoreOptions {
  /**
   * A write that changes nothing still bumps `updatedAt` and tells listeners (true, the
   * faithful default: the harder case for echo detection). False: such a write is ignored.
   */
  noopUpdates: boolean;
  /** State kept outside the record that counts as a change of the product (its metafields). */
  extraState?: (product: ProductRecord) => unknown;
}

/**
 * One shop's products, in memory. Writers change a record through `insert`, `save` and
 * `remove`; each call stamps `updatedAt` and tells listeners, which is how webhooks fire.
 */
export class ProductStore {
  private readonly products = new Map<number, ProductRecord>();
  /** The state each product had when listeners were last told, for no-op detection. */
  private readonly told = new Map<number, { snapshot: ProductRecord; fingerprint: string }>();
  private readonly listeners: ProductEventListener[] = [];
  /**
   * The product each handle was last stored with (`insert`, `save`), so `uniqueHandle` is one
   * lookup per candidate, not a pass over the shop: a create per product of a 100,000-product
   * shop was quadratic. An entry whose product has changed its handle since is stale, and
   * `uniqueHandle` checks the product's handle before counting it as taken.
   */
  private readonly byHandle = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly options: ProductStoreOptions = { noopUpdates: true },
  ) {}

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
    const taken = (handle: string) => {
      const id = this.byHandle.get(handle);
      return id !== undefined && id !== ownId && this.products.get(id)?.handle === handle;
    };
    if (!taken(wanted)) return wanted;
    for (let n = 1; ; n++) if (!taken(`${wanted}-${n}`)) return `${wanted}-${n}`;
  }

  insert(product: ProductRecord): void {
    this.products.set(product.id, product);
    this.byHandle.set(product.handle, product.id);
    this.emit('create', product);
  }

  /**
   * Records a change already made to `product` (which must be stored) and tells listeners.
   * With `noopUpdates` off, a write that changed nothing is undone (its timestamps restored)
   * and nobody is told; returns false then.
   */
  save(product: ProductRecord): boolean {
    if (this.products.get(product.id) !== product)
      throw new Error(`Product ${product.id} is not in this store`);
    const before = this.told.get(product.id);
    if (!this.options.noopUpdates && before && before.fingerprint === this.fingerprint(product)) {
      restoreTimestamps(product, before.snapshot);
      return false;
    }
    product.updatedAt = this.clock.now();
    this.byHandle.set(product.handle, product.id);
    this.emit('update', product);
    return true;
  }

  remove(id: number): ProductRecord | undefined {
    const product = this.products.get(id);
    if (!product) return undefined;
    this.products.delete(id);
    this.told.delete(id);
    if (this.byHandle.get(product.handle) === id) this.byHandle.delete(product.handle);
    this.emit('delete', product);
    return product;
  }

  private emit(type: ProductEventType, product: ProductRecord): void {
    const event: ProductEvent = { type, product: structuredClone(product), at: this.clock.now() };
    if (type !== 'delete') {
      this.told.set(product.id, { snapshot: event.product, fingerprint: this.fingerprint(product) });
    }
    for (const listener of this.listeners) listener(event);
  }

  /** Everything a reader can see of the product, except the timestamps a write stamps. */
  private fingerprint(product: ProductRecord): string {
    const { updatedAt: _updated, variants, images, ...rest } = product;
    return JSON.stringify([
      rest,
      variants.map(({ updatedAt: _at, oldInventoryQuantity: _old, ...variant }) => variant),
      images.map(({ updatedAt: _at, ...image }) => image),
      this.options.extraState?.(product) ?? null,
    ]);
  }
}

/** Puts back the timestamps (and previous quantities) a no-op write stamped. */
function restoreTimestamps(product: ProductRecord, snapshot: ProductRecord): void {
  product.updatedAt = snapshot.updatedAt;
  for (const variant of product.variants) {
    const was = snapshot.variants.find((v) => v.id === variant.id);
    if (was) {
      variant.updatedAt = was.updatedAt;
      variant.oldInventoryQuantity = was.oldInventoryQuantity;
    }
  }
  for (const image of product.images) {
    const was = snapshot.images.find((i) => i.id === image.id);
    if (was) image.updatedAt = was.updatedAt;
  }
}
