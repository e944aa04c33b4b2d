import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { WEBHOOK_SUBSCRIPTION_CREATE_MUTATION } from '../clients/shopify/documents/webhook-subscription-create.mutation.js';
import { WEBHOOK_SUBSCRIPTIONS_QUERY } from '../clients/shopify/documents/webhook-subscriptions.query.js';
import type { ShopAdminClient } from '../clients/shopify/shop-admin.client.js';
import { ShopifyAdmin } from '../clients/shopify/shopify-admin.service.js';
import { ShopMappings } from '../mapping/shop-mappings.js';
import type { ShopConfig } from '../platform/config/connector.config.js';
import { HttpSettings } from '../platform/config/settings.js';
import { jobWaitMs } from '../platform/failures/job-error.js';
import { Shops } from '../shops/shops.js';
import { COLLECTION_TOPICS, SUBSCRIBED_TOPICS } from './webhook-headers.js';

/** The path Shopify posts deliveries to. */
export const WEBHOOK_PATH = '/webhooks/shopify';

interface ListAnswer {
  webhookSubscriptions: { nodes: Array<{ id: string; topic: string; uri: string }> };
}
interface CreateAnswer {
  webhookSubscriptionCreate: {
    webhookSubscription: { id: string } | null;
    userErrors: Array<{ message: string }>;
  };
}

/** What `ensureWebhookSubscriptions` found and did, by topic (`PRODUCTS_UPDATE`, ...). */
export interface SubscriptionOutcome {
  /** Topics that were already subscribed at the URI, kept as they are. */
  existing: string[];
  /** Topics subscribed now. */
  created: string[];
}

/**
 * Subscribes one shop's `products/create`, `/update`, `/delete` and `app/uninstalled` (and any
 * other `topics`) to `uri`, idempotently: topics already subscribed at that URI are kept, the missing ones created. A plain function, so
 * the boot's service and the command line (`register-webhooks`) run the very same calls.
 */
export async function ensureWebhookSubscriptions(
  admin: Pick<ShopAdminClient, 'request'>,
  uri: string,
  topics: readonly string[] = SUBSCRIBED_TOPICS,
): Promise<SubscriptionOutcome> {
  const existing = await admin.request<ListAnswer>(WEBHOOK_SUBSCRIPTIONS_QUERY, { uri }, 52);
  const have = new Set(existing.webhookSubscriptions.nodes.filter((s) => s.uri === uri).map((s) => s.topic));
  const outcome: SubscriptionOutcome = { existing: [], created: [] };
  for (const topic of topics.map((t) => t.toUpperCase().replace('/', '_'))) {
    if (have.has(topic)) {
      outcome.existing.push(topic);
      continue;
    }
    const answer = await admin.request<CreateAnswer>(
      WEBHOOK_SUBSCRIPTION_CREATE_MUTATION,
      { topic, uri },
      10,
    );
    const errors = answer.webhookSubscriptionCreate.userErrors;
    if (errors.length > 0) throw new Error(`${topic}: ${errors.map((e) => e.message).join('; ')}`);
    outcome.created.push(topic);
  }
  return outcome;
}

/**
 * Keeps every shop subscribed to `products/create`, `/update` and `/delete` at
 * `<CONNECTOR_PUBLIC_URL>/webhooks/shopify`, idempotently: existing subscriptions for that URI are
 * kept, missing ones created. Runs at boot in the background (a Shopify outage never stops the
 * connector from booting), retrying with back-off.
 */
@Injectable()
export class WebhookSubscriptions implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('WebhookSubscriptions');
  private stopped = false;

  constructor(
    private readonly settings: HttpSettings,
    private readonly shops: Shops,
    private readonly shopify: ShopifyAdmin,
    private readonly clock: Clock,
    private readonly mappings: ShopMappings,
  ) {}

  onApplicationBootstrap(): void {
    const base = this.settings.publicUrl;
    if (base === null) return;
    for (const shop of this.shops.all) void this.ensureWithRetries(shop, `${base}${WEBHOOK_PATH}`);
  }

  onModuleDestroy(): void {
    this.stopped = true;
  }

  /** Creates the shop's missing subscriptions for `uri`; resolves to the topics it created. */
  async ensure(shop: ShopConfig, uri: string): Promise<string[]> {
    // A scope naming collections also needs their deliveries (membership never touches a product).
    const scoped = (this.mappings.scopeOf(shop.domain)?.collections.length ?? 0) > 0;
    const topics = scoped ? [...SUBSCRIBED_TOPICS, ...COLLECTION_TOPICS] : SUBSCRIBED_TOPICS;
    return (await ensureWebhookSubscriptions(this.shopify.forShop(shop.domain), uri, topics)).created;
  }

  private async ensureWithRetries(shop: ShopConfig, uri: string): Promise<void> {
    for (let attempt = 0; !this.stopped; attempt++) {
      try {
        const created = await this.ensure(shop, uri);
        this.logger.log(
          `${shop.domain}: webhooks go to ${uri}${created.length > 0 ? ` (created ${created.join(', ')})` : ''}`,
        );
        return;
      } catch (error) {
        if (jobWaitMs(error) !== null) {
          // No token for the shop (needs_reauth, uninstalled): the scheduled check subscribes it later.
          this.logger.warn(`${shop.domain}: webhook subscriptions not checked (${String(error)})`);
          return;
        }
        const wait = Math.min(60_000, 1_000 * 2 ** attempt);
        this.logger.warn(
          `${shop.domain}: could not check webhook subscriptions (${String(error)}); again in ${wait} ms`,
        );
        await this.clock.sleep(wait);
      }
    }
  }
}
