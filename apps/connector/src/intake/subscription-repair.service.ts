import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { ShopifyAdmin } from '../clients/shopify/shopify-admin.service.js';
import { ShopMappings } from '../mapping/shop-mappings.service.js';
import { HttpSettings } from '../platform/config/settings.js';
import type { ShopConfig } from '../platform/config/shop-config.js';
import { jobWaitMs } from '../platform/failures/job-error.js';
import { ShopSessionRepository } from '../shops/shop-sessions.repository.js';
import { Shops } from '../shops/shops.js';
import { ensureWebhookSubscriptions, topicsForScope, WEBHOOK_PATH } from './webhook-subscriptions.js';

/** What one check did for one shop. */
export interface SubscriptionCheckResult {
  shop: string;
  /** `checked`, `skipped` (the shop is not active), or `failed` (Shopify could not be asked). */
  outcome: 'checked' | 'skipped' | 'failed';
  /** Topics the check created (none when nothing was missing). */
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
 * uninstall deletes them all; nothing would arrive any more. One owner for a shop's
 * subscriptions: the boot's pass (`WebhookSubscriptions`), the scheduled check (each shop once per
 * `CONNECTOR_SHOPIFY_SUBSCRIPTION_CHECK_MS` across replicas, at its turn in the period) and
 * the check a shop active again asks for all go through `ensureShop`, one at a time per shop in
 * this process, so they never race each other into a second create of one topic. Each compares
 * the shop's subscriptions with the connector's topics (the product ones, `app/uninstalled`, and
 * the collection ones when its scope names collections; never the compliance ones: they are the
 * app's configuration) and creates what is missing. The shop's first successful pass in this
 * process is its boot subscription (logged, not counted); what a later one creates was deleted:
 * recorded in `GET /admin/shops` and `/metrics`, and logged as a warning.
 */
@Injectable()
export class SubscriptionRepair {
  private readonly logger = new Logger('SubscriptionRepair');
  /** Per shop, the end of the last pass asked for in this process (the next one waits for it). */
  private readonly passes = new Map<string, Promise<void>>();
  /** Shops with a successful pass in this process. */
  private readonly subscribed = new Set<string>();

  constructor(
    private readonly http: HttpSettings,
    private readonly shops: Shops,
    private readonly sessions: ShopSessionRepository,
    private readonly shopify: ShopifyAdmin,
    private readonly clock: Clock,
    private readonly mappings: ShopMappings,
  ) {}

  /** Checks these shops (every shop served by default), one after the other. */
  async checkAll(shops: readonly ShopConfig[] = this.shops.all): Promise<SubscriptionCheckResult[]> {
    if (this.http.publicUrl === null) return [];
    const results: SubscriptionCheckResult[] = [];
    for (const shop of shops) {
      const session = await this.sessions.find(shop.domain);
      if (session !== null && session.state !== 'active') {
        results.push({ shop: shop.domain, outcome: 'skipped', recreated: [] });
        continue;
      }
      try {
        const created = await this.ensureShop(shop);
        results.push({ shop: shop.domain, outcome: 'checked', recreated: created });
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

  /**
   * The shop's missing subscriptions created, after any other pass of this process for the shop;
   * resolves to the topics created. Rejects when Shopify cannot be asked (the caller decides
   * when to try again).
   */
  ensureShop(shop: ShopConfig): Promise<string[]> {
    const before = this.passes.get(shop.domain) ?? Promise.resolve();
    const pass = before.then(() => this.pass(shop));
    const settled = pass.then(
      () => undefined,
      () => undefined,
    );
    this.passes.set(shop.domain, settled);
    void settled.then(() => {
      if (this.passes.get(shop.domain) === settled) this.passes.delete(shop.domain);
    });
    return pass;
  }

  /** The connector's topics for the shop: a scope naming collections needs their deliveries too (issue 30). */
  topicsOf(shop: string): readonly string[] {
    return topicsForScope(this.mappings.scopeOf(shop));
  }

  private async pass(shop: ShopConfig): Promise<string[]> {
    if (this.http.publicUrl === null) return [];
    const uri = `${this.http.publicUrl}${WEBHOOK_PATH}`;
    const admin = this.shopify.forShop(shop.domain);
    const outcome = await ensureWebhookSubscriptions(admin, uri, this.topicsOf(shop.domain));
    const first = !this.subscribed.has(shop.domain);
    this.subscribed.add(shop.domain);
    const created = outcome.created;
    await this.sessions.recordSubscriptions(
      shop.domain,
      [...outcome.existing, ...created].sort(),
      first ? 0 : created.length,
      new Date(this.clock.now()),
    );
    if (first) {
      this.logger.log(
        `${shop.domain}: webhooks go to ${uri}${created.length > 0 ? ` (created ${created.join(', ')})` : ''}`,
      );
    } else if (created.length > 0) {
      this.logger.warn(
        `${shop.domain}: webhook subscriptions were missing, created again: ${created.join(', ')}`,
      );
    }
    return created;
  }
}
