import { randomInt, randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { answeringVersion } from '../common/api-versions.js';
import { nanosecondUtcTime } from '../common/shop-time.js';
import type { ShopifySandboxConfig } from '../config/shopify-sandbox.config.js';
import { SANDBOX_CONFIG } from '../shopify-sandbox.tokens.js';
import type { Shop } from '../shops/shop.js';
import type { DeliveryRecord } from '../webhooks/delivery-log.js';
import { shopifyJson } from '../webhooks/shopify-json.js';
import { webhookHmac } from '../webhooks/webhook-payload.js';
import { sendWebhook } from '../webhooks/webhook-sender.js';
import { AppRegistry } from './app-registry.service.js';

/** Shopify sends `shop/redact` this long after an uninstall (privacy law compliance). */
export const SHOP_REDACT_DELAY_MS = 48 * 3_600_000;
/** Sleeps at most this long at a time, so a shutdown is not held by a 48-hour timer. */
const SLEEP_CHUNK_MS = 10_000;

/**
 * Webhooks of an app's life on a shop, outside products: `app/uninstalled` (to its
 * subscriptions) and the compliance topics (to its configured compliance URLs), signed with the
 * app's secret, retried on the configured schedule, written to the shop's delivery log.
 */
@Injectable()
export class AppWebhooks implements OnApplicationShutdown {
  private readonly logger = new Logger('AppWebhooks');
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly apps: AppRegistry,
    private readonly clock: Clock,
    @Inject(SANDBOX_CONFIG) private readonly config: ShopifySandboxConfig,
  ) {}

  /** Resolves once no app webhook is being attempted (a `shop/redact` still waiting its 48 hours is not). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  onApplicationShutdown(): void {
    this.closed = true;
  }

  /** Sends one webhook of `topic` (`app/uninstalled`, `shop/redact`, …) to `uri`; returns its log record. */
  send(
    shop: Shop,
    clientId: string,
    topic: string,
    uri: string,
    payload: unknown,
    subscriptionId = '',
  ): DeliveryRecord {
    const body = shopifyJson(payload);
    const apiVersion =
      answeringVersion(this.config.webhooks.apiVersion, this.config.apiVersions) ??
      this.config.webhooks.apiVersion;
    const now = this.clock.now();
    const record: DeliveryRecord = {
      id: randomUUID(),
      webhookId: randomUUID(),
      eventId: randomUUID(),
      topic,
      subscriptionId,
      uri,
      productId: null,
      apiVersion,
      triggeredAt: nanosecondUtcTime(now, randomInt(1_000_000)),
      state: 'pending',
      duplicate: false,
      attempts: [],
      payload,
    };
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': 'Shopify-Captain-Hook',
      Accept: '*/*',
      'Accept-Encoding': 'gzip;q=1.0,deflate;q=0.6,identity;q=0.3',
      'X-Shopify-Topic': topic,
      'X-Shopify-Hmac-Sha256': webhookHmac(body, this.apps.secretOf(clientId)),
      'X-Shopify-Shop-Domain': shop.domain,
      'X-Shopify-API-Version': apiVersion,
      'X-Shopify-Webhook-Id': record.webhookId,
      'X-Shopify-Event-Id': record.eventId,
      'X-Shopify-Triggered-At': record.triggeredAt,
    };
    shop.deliveries.add(record);
    this.track(this.deliver(record, headers, body));
    return record;
  }

  /** `shop/redact` to the app's compliance URL, 48 hours (sandbox clock) after an uninstall. */
  scheduleShopRedact(shop: Shop, clientId: string): void {
    const due = this.clock.now() + SHOP_REDACT_DELAY_MS;
    void (async () => {
      while (!this.closed && this.clock.now() < due) {
        await this.clock.sleep(Math.min(SLEEP_CHUNK_MS, due - this.clock.now()));
      }
      const uri = this.apps.app(clientId)?.complianceUrls.shopRedact;
      if (this.closed || !uri) return;
      this.send(shop, clientId, 'shop/redact', uri, { shop_id: shop.id, shop_domain: shop.domain });
    })();
  }

  private async deliver(
    record: DeliveryRecord,
    headers: Record<string, string>,
    body: string,
  ): Promise<void> {
    const delays = [0, ...this.config.webhooks.retryDelaysMs];
    for (const delay of delays) {
      if (delay > 0) await this.clock.sleep(delay);
      if (this.closed) return;
      const started = this.clock.now();
      const result = await sendWebhook(record.uri, headers, body, this.config.webhooks.timeoutMs);
      const ok = result.status !== null && result.status >= 200 && result.status < 300;
      record.attempts.push({
        number: record.attempts.length + 1,
        at: new Date(started).toISOString(),
        status: result.status,
        error: ok ? null : (result.error ?? `answered HTTP ${result.status}`),
        durationMs: this.clock.now() - started,
      });
      if (ok) {
        record.state = 'delivered';
        return;
      }
    }
    record.state = 'failed';
    this.logger.warn(`${record.topic} to ${record.uri} failed after every retry`);
  }

  private track(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) => {
      this.logger.error(`app webhook crashed: ${error instanceof Error ? error.message : String(error)}`);
    });
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));
  }
}
