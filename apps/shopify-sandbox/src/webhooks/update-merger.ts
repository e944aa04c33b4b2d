import type { Clock } from '#lib/clock';
import type { ProductEvent } from '../products/product.store.js';
import type { Shop } from '../shops/shop.js';

/** The two timing switches of `config.webhooks` the merger follows. */
export interface UpdateMergerSettings {
  /** How long a product's `products/update` waits for more writes; 0 sends one per write. */
  mergeWindowMs: number;
  /** Follow every `products/create` with a `products/update` of the same product. */
  updateAfterCreate: boolean;
}

interface Pending {
  shop: Shop;
  event: ProductEvent;
  release: () => void;
}

/**
 * Turns product changes into the events Shopify would send. `products/create` and
 * `products/delete` go out at once; `products/update` of one product waits `mergeWindowMs`
 * (counted from its first write) and goes out once with the latest state, however many writes
 * came in between, as Shopify delays and merges rapid updates. A create is followed by an update
 * of the same product (merged with any write in the window). A delete first sends the update
 * still waiting for that product.
 */
export class UpdateMerger {
  private readonly pending = new Map<Shop, Map<number, Pending>>();

  constructor(
    private readonly clock: Clock,
    private readonly settings: UpdateMergerSettings,
    private readonly publish: (shop: Shop, event: ProductEvent) => void,
    private readonly track: (work: Promise<void>) => void,
  ) {}

  accept(shop: Shop, event: ProductEvent): void {
    switch (event.type) {
      case 'create':
        this.publish(shop, event);
        if (this.settings.updateAfterCreate) this.merge(shop, { ...event, type: 'update' });
        return;
      case 'update':
        this.merge(shop, event);
        return;
      case 'delete':
        this.release(shop, event.product.id);
        this.publish(shop, event);
    }
  }

  /** Sends every update of this shop still waiting in its merge window, now. */
  flush(shop: Shop): void {
    for (const productId of [...(this.pending.get(shop)?.keys() ?? [])]) this.release(shop, productId);
  }

  private merge(shop: Shop, event: ProductEvent): void {
    if (this.settings.mergeWindowMs <= 0) {
      this.publish(shop, event);
      return;
    }
    let waiting = this.pending.get(shop);
    if (!waiting) {
      waiting = new Map();
      this.pending.set(shop, waiting);
    }
    const existing = waiting.get(event.product.id);
    if (existing) {
      existing.event = event;
      return;
    }
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const entry: Pending = { shop, event, release };
    waiting.set(event.product.id, entry);
    this.track(
      Promise.race([this.clock.sleep(this.settings.mergeWindowMs), released]).then(() => {
        if (waiting.get(event.product.id) === entry) this.release(shop, event.product.id);
      }),
    );
  }

  private release(shop: Shop, productId: number): void {
    const waiting = this.pending.get(shop);
    const entry = waiting?.get(productId);
    if (!entry) return;
    waiting?.delete(productId);
    entry.release();
    this.publish(entry.shop, entry.event);
  }
}
