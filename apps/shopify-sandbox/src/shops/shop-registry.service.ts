import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { IdSequence } from '../common/id-sequence.js';
import {
  type ShopConfig,
  type ShopifySandboxConfig,
  shopListProblem,
} from '../config/shopify-sandbox.config.js';
import { ShopifyErrorCode, ShopifySandboxError } from '../http/shopify-sandbox.error.js';
import type { ProductEvent } from '../products/product.store.js';
import { SANDBOX_CONFIG } from '../shopify-sandbox.tokens.js';
import { Shop } from './shop.js';

export type ShopProductListener = (shop: Shop, event: ProductEvent) => void;

/** The shops this sandbox plays: those of the configuration, plus any created at run time. */
@Injectable()
export class ShopRegistry {
  private readonly shops = new Map<string, Shop>();
  private readonly listeners: ShopProductListener[] = [];

  constructor(
    @Inject(SANDBOX_CONFIG) private readonly config: ShopifySandboxConfig,
    private readonly clock: Clock,
    private readonly ids: IdSequence,
  ) {
    for (const shop of config.shops) this.create(shop);
  }

  all(): Shop[] {
    return [...this.shops.values()];
  }

  byDomain(domain: string): Shop | undefined {
    return this.shops.get(domain);
  }

  byToken(token: string): Shop | undefined {
    return this.all().find((shop) => shop.hasToken(token));
  }

  /** Adds a shop; throws a `conflict` error naming the clash when the domain or token is taken. */
  create(config: ShopConfig): Shop {
    const problem = shopListProblem([...this.all().map(tokenlessView), config]);
    if (problem || this.byToken(config.accessToken)) {
      throw new ShopifySandboxError(
        ShopifyErrorCode.CONFLICT,
        `Cannot add shop ${config.domain}: the list ${problem ?? 'already uses that token'}`,
      );
    }
    const shop = new Shop(config.domain, config.accessToken, this.clock, this.ids, this.config.cost, {
      noopUpdates: this.config.webhooks.noopUpdates,
    });
    shop.products.onChange((event) => {
      for (const listener of this.listeners) listener(shop, event);
    });
    this.shops.set(shop.domain, shop);
    return shop;
  }

  /** Called for every product change of every shop (present and future). */
  onProductEvent(listener: ShopProductListener): void {
    this.listeners.push(listener);
  }
}

/** Registered shops' tokens are private; a placeholder keeps domain checks meaningful. */
function tokenlessView(shop: Shop): ShopConfig {
  return { domain: shop.domain, accessToken: `\u0000${shop.domain}` };
}
