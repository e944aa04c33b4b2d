import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { toGid } from '../common/gid.js';
import type { ShopifySandboxConfig } from '../config/shopify-sandbox.config.js';
import { ShopifyErrorCode, ShopifySandboxError } from '../http/shopify-sandbox.error.js';
import { SANDBOX_CONFIG } from '../shopify-sandbox.tokens.js';
import type { Shop } from '../shops/shop.js';
import { AppRegistry } from './app-registry.service.js';
import { AppWebhooks } from './app-webhooks.service.js';
import { OAuthService } from './oauth.service.js';
import { shopPayload } from './shop-payload.js';

/** A customer named in a compliance request (Shopify's payload fields). */
export interface ComplianceCustomer {
  id: number;
  email: string | null;
  phone: string | null;
}

/**
 * Installs and uninstalls apps on shops as a merchant does, with what Shopify does around it:
 * an uninstall revokes the app's tokens at once, sends `app/uninstalled` to its subscriptions,
 * deletes them, and sends `shop/redact` 48 hours later; the customer compliance requests.
 */
@Injectable()
export class AppLifecycle {
  constructor(
    private readonly apps: AppRegistry,
    private readonly oauth: OAuthService,
    private readonly webhooks: AppWebhooks,
    private readonly clock: Clock,
    @Inject(SANDBOX_CONFIG) private readonly config: ShopifySandboxConfig,
  ) {}

  uninstall(shop: Shop, clientId: string) {
    this.installedApp(shop, clientId);
    this.apps.uninstall(shop.domain, clientId);
    this.oauth.forget(shop.domain, clientId);
    const owned = shop.subscriptions
      .list()
      .filter((s) => (s.clientId ?? this.apps.defaultClientId) === clientId);
    const payload = shopPayload(shop, this.clock.now(), this.config.timeZone);
    for (const subscription of owned.filter((s) => s.topic === 'APP_UNINSTALLED')) {
      const gid = toGid('WebhookSubscription', subscription.id);
      this.webhooks.send(shop, clientId, 'app/uninstalled', subscription.uri, payload, gid);
    }
    for (const subscription of owned) shop.subscriptions.delete(subscription.id);
    this.webhooks.scheduleShopRedact(shop, clientId);
    return { clientId, installed: false, deletedWebhookSubscriptions: owned.length };
  }

  /** Installs the app again: new credentials (a non-expiring offline token); the old ones stay dead. */
  install(shop: Shop, clientId: string) {
    const app = this.apps.app(clientId);
    if (!app) throw new ShopifySandboxError(ShopifyErrorCode.NOT_FOUND, `Unknown app ${clientId}`);
    if (this.apps.isInstalled(shop.domain, clientId)) {
      throw new ShopifySandboxError(
        ShopifyErrorCode.CONFLICT,
        `${clientId} is already installed on ${shop.domain}`,
      );
    }
    this.apps.install(shop.domain, clientId);
    const token = this.apps.tokens.issueAccess(
      shop.domain,
      clientId,
      'offline',
      app.scopes,
      this.clock.now(),
      null,
    );
    return { clientId, installed: true, accessToken: token, scope: app.scopes.join(',') };
  }

  /**
   * The app's non-expiring offline token on the shop, as an authorization code exchanged without
   * `expiring=1` gives it: the same one until an uninstall or its migration revokes it, then a new one.
   * Lets a test or an operator hold a legacy token without the browser flow.
   */
  legacyToken(shop: Shop, clientId: string) {
    const app = this.installedApp(shop, clientId);
    const now = this.clock.now();
    const token = this.apps.tokens.issueAccess(shop.domain, clientId, 'offline', app.scopes, now, null);
    const scopes = this.apps.tokens.resolve(token, now)?.scopes ?? app.scopes;
    return { clientId, accessToken: token, scope: scopes.join(',') };
  }

  /** `customers/data_request` or `customers/redact` to the app's compliance URL (null when it has none). */
  customerRequest(
    shop: Shop,
    clientId: string,
    topic: 'customers/data_request' | 'customers/redact',
    customer: ComplianceCustomer,
    orders: number[],
  ) {
    const app = this.installedApp(shop, clientId);
    const urls = app.complianceUrls;
    const uri = topic === 'customers/redact' ? urls.customersRedact : urls.customersDataRequest;
    if (!uri) return { delivery: null };
    const base = { shop_id: shop.id, shop_domain: shop.domain };
    const payload =
      topic === 'customers/redact'
        ? { ...base, customer, orders_to_redact: orders }
        : { ...base, orders_requested: orders, customer, data_request: { id: shop.ids.take() } };
    return { delivery: this.webhooks.send(shop, clientId, topic, uri, payload) };
  }

  private installedApp(shop: Shop, clientId: string) {
    const app = this.apps.app(clientId);
    if (!app) throw new ShopifySandboxError(ShopifyErrorCode.NOT_FOUND, `Unknown app ${clientId}`);
    if (!this.apps.isInstalled(shop.domain, clientId)) {
      throw new ShopifySandboxError(
        ShopifyErrorCode.CONFLICT,
        `${clientId} is not installed on ${shop.domain}`,
      );
    }
    return app;
  }
}
