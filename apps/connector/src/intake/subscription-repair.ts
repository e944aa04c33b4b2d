import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { ShopifyAdmin } from '../clients/shopify/shopify-admin.service.js';
import { HttpSettings } from '../platform/config/settings.js';
import { jobWaitMs } from '../platform/failures/job-error.js';
import { ShopSessionRepository } from '../shops/shop-sessions.repository.js';
import { Shops } from '../shops/shops.js';
import { ensureWebhookSubscriptions, WEBHOOK_PATH } from './webhook-subscriptions.js';

/** What one check did for one shop. */
export interface SubscriptionCheckResult {
  shop: string;
  /** `checked`, `skipped` (the shop is not active), or `failed` (Shopify could not be asked). */
  outcome: 'checked' | 'skipped' | 'failed';
  recreated: string[];
  /**
   * `failed` only: the shop's row is active but this process has no token for it yet (it
   * remembers the shop as not installed until its next look at the row: the install happened
   * on another replica); checking again after this long will find the token.
   */
  retryInMs?: number;
}

/**
 * Why: Shopify deletes an Admin-API subscription after 8 failed deliveries in a row, and an
 * uninstall deletes them all; nothing would arrive any more. The scheduled check (once per
 * `CONNECTOR_SHOPIFY_SUBSCRIPTION_CHECK_MS` across replicas) compares each active shop's
 * subscriptions with the connector's topics (never the compliance ones: they are the app's
 * configuration) and creates what is missing, recorded in `GET /admin/shops` and `/metrics`.
 */
@Injectable()
export class SubscriptionRepair {
  private readonly logger = new Logger('SubscriptionRepair');

  constructor(
    private readonly http: HttpSettings,
    private readonly shops: Shops,
    private readonly sessions: ShopSessionRepository,
    private readonly shopify: ShopifyAdmin,
    private readonly clock: Clock,
  ) {}

  async checkAll(): Promise<SubscriptionCheckResult[]> {
    if (this.http.publicUrl === null) return [];
    const uri = `${this.http.publicUrl}${WEBHOOK_PATH}`;
    const results: SubscriptionCheckResult[] = [];
    for (const shop of this.shops.all) {
      const session = await this.sessions.find(shop.domain);
      if (session !== null && session.state !== 'active') {
        results.push({ shop: shop.domain, outcome: 'skipped', recreated: [] });
        continue;
      }
      try {
        const outcome = await ensureWebhookSubscriptions(this.shopify.forShop(shop.domain), uri);
        const topics = [...outcome.existing, ...outcome.created].sort();
        await this.sessions.recordSubscriptions(
          shop.domain,
          topics,
          outcome.created.length,
          new Date(this.clock.now()),
        );
        if (outcome.created.length > 0) {
          this.logger.warn(
            `${shop.domain}: webhook subscriptions were missing, created again: ${outcome.created.join(', ')}`,
          );
        }
        results.push({ shop: shop.domain, outcome: 'checked', recreated: outcome.created });
      } catch (error) {
        this.logger.warn(`${shop.domain}: could not check webhook subscriptions (${String(error)})`);
        const retryInMs = jobWaitMs(error);
        results.push({
          shop: shop.domain,
          outcome: 'failed',
          recreated: [],
          ...(retryInMs === null ? {} : { retryInMs }),
        });
      }
    }
    return results;
  }
}
