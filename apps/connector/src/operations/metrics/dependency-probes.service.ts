import { Injectable, type OnModuleInit } from '@nestjs/common';
import { CatalogClients } from '../../clients/catalog/catalog-clients.service.js';
import { pingShop } from '../../clients/shopify/shop-reads.js';
import { ShopifyAdminError, ShopifyErrorCode } from '../../clients/shopify/shopify-admin.error.js';
import { ShopifyAdmin } from '../../clients/shopify/shopify-admin.service.js';
import { OperationsSettings } from '../../platform/config/settings.js';
import { DependencyHealth } from '../../platform/reporting/dependency-health.service.js';
import { Observations } from '../../platform/reporting/observations.service.js';
import { Shops } from '../../shops/shops.js';

const CONNECT_TIMEOUT_MS = 3_000;

/**
 * Registers the dependency checks `/health` and the metrics report, run on `DependencyHealth`'s
 * schedule, never on a request:
 * - each catalog account: reachable (a `HEAD /` without the key: nothing charged to the
 *   budget), key accepted (from the last answers real work got, and the breaker's reason), and
 *   the breaker's state;
 * - each Shopify shop: the cheapest Admin query (`pingShop`, 1 point of the shop's own
 *   bucket; the catalog budget is untouched).
 */
@Injectable()
export class DependencyProbes implements OnModuleInit {
  /** The last HTTP status real calls got from each catalog account. */
  private readonly lastStatus = new Map<string, number>();

  constructor(
    private readonly settings: OperationsSettings,
    private readonly shops: Shops,
    private readonly health: DependencyHealth,
    private readonly observations: Observations,
    private readonly catalogs: CatalogClients,
    private readonly shopify: ShopifyAdmin,
  ) {}

  onModuleInit(): void {
    this.health.every(this.settings.dependencyCheckIntervalMs);
    this.observations.subscribe({
      catalogCall: ({ account, status }) => {
        if (status !== null) this.lastStatus.set(account, status);
      },
    });
    for (const account of this.catalogs.all()) {
      const baseUrl = account.id.slice(0, account.id.lastIndexOf('#'));
      this.health.register({
        name: `catalog:${account.id}`,
        run: async () => {
          const reachable = await httpReachable(baseUrl);
          const { state, reason } = account.client.breaker.snapshot;
          const status = this.lastStatus.get(account.id);
          const keyRefused = reason === 'auth' || status === 401 || status === 403;
          const keyAccepted = keyRefused ? false : status === undefined ? null : true;
          return {
            status: !reachable ? 'down' : keyRefused || state !== 'closed' ? 'degraded' : 'up',
            details: { reachable, keyAccepted, breaker: state, shops: account.shops },
          };
        },
      });
    }
    for (const shop of this.shops.all) {
      this.health.register({
        name: `shopify:${shop.domain}`,
        run: async () => {
          try {
            await pingShop(this.shopify.forShop(shop.domain));
            return { status: 'up', details: { reachable: true, tokenAccepted: true } };
          } catch (error) {
            const code: string = error instanceof ShopifyAdminError ? error.code : 'error';
            const refused = code === ShopifyErrorCode.UNAUTHORIZED || code === ShopifyErrorCode.FORBIDDEN;
            return {
              status: refused ? 'degraded' : 'down',
              details: { reachable: refused, tokenAccepted: refused ? false : null, error: code },
            };
          }
        },
      });
    }
  }
}

/**
 * Whether the catalog's host answers HTTP at all: a `HEAD /` without the API key (any status
 * counts), so it is never charged to an account's budget.
 */
async function httpReachable(baseUrl: string): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl}/`, {
      method: 'HEAD',
      redirect: 'manual',
      signal: AbortSignal.timeout(CONNECT_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return true;
  } catch {
    return false;
  }
}
