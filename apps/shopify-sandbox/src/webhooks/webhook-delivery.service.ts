import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { seededRandom } from '#lib/seeded-random';
import { AppRegistry } from '../apps/app-registry.service.js';
import type { ShopifySandboxConfig } from '../config/shopify-sandbox.config.js';
import type { ProductEvent } from '../products/product.store.js';
import { SANDBOX_CONFIG } from '../shopify-sandbox.tokens.js';
import type { Shop } from '../shops/shop.js';
import { ShopRegistry } from '../shops/shop-registry.service.js';
import type { DeliveryRecord } from './delivery-log.js';
import { UpdateMerger } from './update-merger.js';
import {
  type Delivery,
  deliveryApiVersion,
  prepareDelivery,
  signedDelivery,
  stampEvent,
} from './webhook-request.js';
import { sendWebhook } from './webhook-sender.js';
import type { WebhookSubscriptionRecord } from './webhook-subscription.store.js';

/**
 * Delivers `products/*` (and, through `publishResource`, `collections/*` and
 * `bulk_operations/finish`) webhooks to the
 * subscribed URLs: product updates merged per product (see
 * `UpdateMerger`), signed, in event order per subscription (first attempts), retried after
 * failures on the configured schedule, with the shop's delivery faults applied. Everything is
 * written to the shop's delivery log.
 */
@Injectable()
export class WebhookDeliveryService implements OnApplicationShutdown {
  private readonly logger = new Logger('WebhookDelivery');
  private readonly queues = new Map<number, Promise<void>>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly held = new Map<Shop, { delivery: Delivery; release: () => void }>();
  private readonly randoms = new Map<Shop, { seed: number; next: () => number }>();
  private readonly merger: UpdateMerger;
  /** Consecutive failed attempts per subscription (any delivery); a 2xx resets it. */
  private readonly failures = new Map<string, number>();
  private closed = false;

  constructor(
    shops: ShopRegistry,
    private readonly clock: Clock,
    @Inject(SANDBOX_CONFIG) private readonly config: ShopifySandboxConfig,
    private readonly apps: AppRegistry,
  ) {
    this.merger = new UpdateMerger(
      clock,
      config.webhooks,
      (shop, event) => this.publish(shop, event),
      (work) => this.track(work),
    );
    shops.onProductEvent((shop, event) => this.merger.accept(shop, event));
  }

  /** Resolves once no delivery is waiting, held, or being attempted (retries included). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Sends at once the updates waiting in their merge window and a delivery held by `reorder`. */
  flushHeld(shop: Shop): void {
    this.merger.flush(shop);
    this.releaseHeld(shop);
  }

  /** Sends at once a delivery held back by the `reorder` fault. */
  private releaseHeld(shop: Shop): void {
    const held = this.held.get(shop);
    if (!held) return;
    this.held.delete(shop);
    held.release();
    this.enqueue(held.delivery);
  }

  onApplicationShutdown(): void {
    this.closed = true;
  }

  private publish(shop: Shop, event: ProductEvent): void {
    const topic = `PRODUCTS_${event.type.toUpperCase()}`;
    const stamp = stampEvent(event);
    this.fanOut(shop, topic, undefined, (subscription) =>
      prepareDelivery(shop, event, subscription, stamp, this.config, this.secretOf(subscription)),
    );
  }

  /**
   * Sends an event of any other topic (`collections/*`, `bulk_operations/finish`) to every
   * subscription of `topic` (the GraphQL enum name), or only app `clientId`'s (an app's own
   * events, such as its bulk operation finishing): `payload` builds the body
   * for the version answering each one, narrowed to the subscription's `includeFields`.
   * Delivered like product events: signed with the subscribing app's secret, logged, retried
   * (and counted towards the subscription's removal), with the shop's faults.
   */
  publishResource(
    shop: Shop,
    topic: string,
    at: number,
    payload: (apiVersion: string) => Record<string, unknown>,
    clientId?: string,
  ): void {
    const stamp = stampEvent({ at });
    this.fanOut(shop, topic, clientId, (subscription) => {
      const apiVersion = deliveryApiVersion(subscription, this.config);
      const body = payload(apiVersion);
      const narrowed =
        subscription.includeFields.length === 0
          ? body
          : Object.fromEntries(
              Object.entries(body).filter(([key]) => subscription.includeFields.includes(key)),
            );
      return signedDelivery(shop, subscription, stamp, {
        apiVersion,
        payload: narrowed,
        productId: null,
        headers: {},
        secret: this.secretOf(subscription),
      });
    });
  }

  private secretOf(subscription: WebhookSubscriptionRecord): string {
    return this.apps.secretOf(subscription.clientId);
  }

  /**
   * Logs and sends one delivery per subscription of `topic` (of app `clientId` only, when
   * given), with the shop's faults: a delivery may be dropped or duplicated.
   */
  private fanOut(
    shop: Shop,
    topic: string,
    clientId: string | undefined,
    prepare: (subscription: WebhookSubscriptionRecord) => Delivery,
  ): void {
    if (this.closed) return;
    const ownerOf = (s: WebhookSubscriptionRecord) => s.clientId ?? this.apps.defaultClientId;
    for (const subscription of shop.subscriptions.forTopic(topic)) {
      if (clientId !== undefined && ownerOf(subscription) !== clientId) continue;
      const delivery = prepare(subscription);
      shop.deliveries.add(delivery.record);
      const random = this.random(shop);
      if (random() < shop.deliveryFaults.drop) {
        delivery.record.state = 'dropped';
        continue;
      }
      this.dispatch(delivery);
      if (random() < shop.deliveryFaults.duplicate) {
        const copy = {
          ...delivery,
          record: { ...delivery.record, id: randomUUID(), duplicate: true, attempts: [] },
        };
        shop.deliveries.add(copy.record);
        this.dispatch(copy);
      }
    }
  }

  private dispatch(delivery: Delivery): void {
    const { shop } = delivery;
    const faults = shop.deliveryFaults;
    if (!faults.reorder) {
      this.track(this.delayed(delivery, faults.delayMs));
      return;
    }
    const earlier = this.held.get(shop);
    if (earlier) {
      this.held.delete(shop);
      earlier.release();
      this.track(this.delayed(delivery, faults.delayMs).then(() => this.enqueue(earlier.delivery)));
      return;
    }
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.held.set(shop, { delivery, release });
    this.track(
      Promise.race([this.clock.sleep(faults.reorderWindowMs), released]).then(() => {
        if (this.held.get(shop)?.delivery === delivery) this.releaseHeld(shop);
      }),
    );
  }

  private async delayed(delivery: Delivery, delayMs: number): Promise<void> {
    if (delayMs > 0) await this.clock.sleep(delayMs);
    this.enqueue(delivery);
  }

  /** First attempts of one subscription go out one after the other; retries run on their own. */
  private enqueue(delivery: Delivery): void {
    const key = subscriptionKey(delivery.record.subscriptionId);
    const previous = this.queues.get(key) ?? Promise.resolve();
    const first = previous.then(() => this.attempt(delivery));
    const tail = first.then(() => undefined);
    this.queues.set(key, tail);
    this.track(tail);
    this.track(first.then((ok) => (ok ? undefined : this.retry(delivery))));
  }

  private async retry(delivery: Delivery): Promise<void> {
    for (const delay of this.config.webhooks.retryDelaysMs) {
      await this.clock.sleep(delay);
      if (this.closed) return;
      if (await this.attempt(delivery)) return;
    }
    delivery.record.state = 'failed';
    this.logger.warn(`${delivery.record.topic} to ${delivery.record.uri} failed after every retry`);
    const last = delivery.record.attempts.at(-1);
    if (last && this.countFailure(delivery)) last.error = `${last.error ?? 'failed'}; ${this.removalNote()}`;
  }

  /** One attempt; true when the receiver answered 2xx. */
  private async attempt(delivery: Delivery): Promise<boolean> {
    const { record, shop } = delivery;
    if (this.closed) return true;
    if (!shop.subscriptions.get(subscriptionKey(record.subscriptionId))) {
      record.state = 'failed';
      record.attempts.push(this.attemptRecord(record, this.clock.now(), null, 'subscription was deleted'));
      return true;
    }
    const started = this.clock.now();
    const result = await sendWebhook(
      record.uri,
      delivery.headers,
      delivery.body,
      this.config.webhooks.timeoutMs,
    );
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    const failure = ok ? null : (result.error ?? `answered HTTP ${result.status}`);
    const error = failure;
    if (ok) this.failures.delete(record.subscriptionId);
    record.attempts.push(this.attemptRecord(record, started, result.status, error));
    if (ok) record.state = 'delivered';
    else if (record.attempts.length > this.config.webhooks.retryDelaysMs.length) record.state = 'failed';
    this.logger.debug(
      `${record.topic} ${record.webhookId} attempt ${record.attempts.length}: ${error ?? 'ok'}`,
    );
    return ok;
  }

  /**
   * Counts a delivery that failed every attempt of the retry schedule; at `removeAfterFailures`
   * such deliveries in a row the subscription is deleted, as Shopify deletes one created through
   * the Admin API once a webhook has failed all its retries (8 over 4 hours there; the sandbox's
   * schedule is `retryDelaysMs`). A receiver down for less than the schedule loses nothing.
   */
  private countFailure(delivery: Delivery): boolean {
    const id = delivery.record.subscriptionId;
    const count = (this.failures.get(id) ?? 0) + 1;
    this.failures.set(id, count);
    const limit = this.config.webhooks.removeAfterFailures;
    if (limit === 0 || count < limit) return false;
    this.failures.delete(id);
    delivery.record.state = 'failed';
    const removed = delivery.shop.subscriptions.delete(subscriptionKey(id));
    if (removed) this.logger.warn(`${id} (${delivery.record.uri}) removed: ${this.removalNote()}`);
    return removed;
  }

  private removalNote(): string {
    const n = this.config.webhooks.removeAfterFailures;
    return `subscription removed after ${n === 1 ? 'a delivery' : `${n} deliveries in a row`} failed every retry`;
  }

  private attemptRecord(
    record: DeliveryRecord,
    started: number,
    status: number | null,
    error: string | null,
  ) {
    return {
      number: record.attempts.length + 1,
      at: new Date(started).toISOString(),
      status,
      error,
      durationMs: this.clock.now() - started,
    };
  }

  private random(shop: Shop): () => number {
    const seed = shop.deliveryFaults.seed;
    let random = this.randoms.get(shop);
    if (!random || random.seed !== seed) {
      random = { seed, next: seededRandom(seed) };
      this.randoms.set(shop, random);
    }
    return random.next;
  }

  /** Restarts the shop's fault generator from its seed (when faults are set again). */
  resetRandom(shop: Shop): void {
    this.randoms.delete(shop);
  }

  private track(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) => {
      this.logger.error(
        `webhook delivery crashed: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));
  }
}

function subscriptionKey(subscriptionGid: string): number {
  return Number(subscriptionGid.slice(subscriptionGid.lastIndexOf('/') + 1));
}
