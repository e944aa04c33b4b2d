import { timingSafeEqual } from 'node:crypto';
import { Clock } from '#lib/clock';
import { CollectionStore } from '../collections/collection.store.js';
import { toGid } from '../common/gid.js';
import { IdSequence } from '../common/id-sequence.js';
import { CostBucket } from '../graphql/cost-bucket.js';
import { ImageStore } from '../images/image.store.js';
import { MetafieldStore } from '../products/metafield.store.js';
import { MetafieldDefinitionStore } from '../products/metafield-definition.store.js';
import type { ProductRecord } from '../products/product.model.js';
import { ProductStore } from '../products/product.store.js';
import { type DeliveryFaults, NO_FAULTS } from '../webhooks/delivery-faults.js';
import { DeliveryLog } from '../webhooks/delivery-log.js';
import { WebhookSubscriptionStore } from '../webhooks/webhook-subscription.store.js';
import { AdminRequestLog } from './admin-request-log.js';

/** Everything one emulated shop holds. The access token is kept out of reach of serializers. */
export class Shop {
  readonly id: number;
  readonly locationId: number;
  readonly products: ProductStore;
  /** Custom and smart collections (see `src/collections`). */
  readonly collections: CollectionStore;
  readonly metafields = new MetafieldStore();
  readonly metafieldDefinitions = new MetafieldDefinitionStore();
  readonly subscriptions = new WebhookSubscriptionStore();
  readonly deliveries = new DeliveryLog();
  readonly adminRequests = new AdminRequestLog();
  readonly images = new ImageStore();
  readonly costBucket: CostBucket;
  /** The shop's currency (`shop.currencyCode`); `money` metafields must use it. */
  readonly currencyCode = 'USD';
  deliveryFaults: DeliveryFaults = { ...NO_FAULTS };
  readonly #accessToken: Buffer;

  constructor(
    readonly domain: string,
    accessToken: string,
    clock: Clock,
    readonly ids: IdSequence,
    cost: { bucketSize: number; restoreRate: number },
    writes: { noopUpdates: boolean } = { noopUpdates: true },
  ) {
    this.#accessToken = Buffer.from(accessToken);
    this.id = ids.take();
    this.locationId = ids.take();
    this.products = new ProductStore(clock, {
      noopUpdates: writes.noopUpdates,
      extraState: (product) => this.metafieldState(product),
    });
    this.collections = new CollectionStore(this.products);
    this.costBucket = new CostBucket(clock, cost.bucketSize, cost.restoreRate);
  }

  /** Constant-time comparison with the shop's access token. */
  hasToken(token: string): boolean {
    const given = Buffer.from(token);
    return given.length === this.#accessToken.length && timingSafeEqual(given, this.#accessToken);
  }

  /** The product's and its variants' metafields (namespace, key, type, value): a change to them is a product change. */
  private metafieldState(product: ProductRecord): unknown {
    const owners = [
      toGid('Product', product.id),
      ...product.variants.map((v) => toGid('ProductVariant', v.id)),
    ];
    return owners.map((owner) =>
      this.metafields.list(owner).map((m) => [m.namespace, m.key, m.type, m.value]),
    );
  }

  /** The shop's name: its domain without `.myshopify.com`. */
  get name(): string {
    return this.domain.replace(/\.myshopify\.com$/, '');
  }
}
