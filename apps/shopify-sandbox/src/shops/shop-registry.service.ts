import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { IdSequence } from '../common/id-sequence.js';
import type { ShopConfig, ShopifySandboxConfig } from '../config/shopify-sandbox.config.js';
import { ShopifyErrorCode, ShopifySandboxError } from '../http/shopify-sandbox.error.js';
import type { ProductEvent } from '../products/product.store.js';
import { SANDBOX_CONFIG } from '../shopify-sandbox.tokens.js';
import { Shop } from './shop.js';

export type ShopProductListener = (shop: Shop, event: ProductEvent) => void;

/**
 * The shops this sandbox plays: those of the configuration, plus any created at run time. Shops
 * are found by domain or by static token in constant time, so hundreds of shops cost no more
 * per request than one.
 */
@Injectable()
export class ShopRegistry {
  private readonly shops = new Map<string, Shop>();
  /** SHA-256 of each shop's static token → the shop (the token itself is kept by the shop only). */
  private readonly byTokenHash = new Map<string, Shop>();
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
    const shop = this.byTokenHash.get(tokenHash(token));
    return shop?.hasToken(token) ? shop : undefined;
  }

  /** Adds a shop; throws a `conflict` error naming the clash when the domain or token is taken. */
  create(config: ShopConfig): Shop {
    const problem = this.shops.has(config.domain)
      ? 'lists a shop domain twice'
      : this.byToken(config.accessToken)
        ? 'already uses that token'
        : undefined;
    if (problem) {
      throw new ShopifySandboxError(
        ShopifyErrorCode.CONFLICT,
        `Cannot add shop ${config.domain}: the list ${problem}`,
      );
    }
    const shop = new Shop(config.domain, config.accessToken, this.clock, this.ids, this.config.cost, {
      noopUpdates: this.config.webhooks.noopUpdates,
    });
    shop.products.onChange((event) => {
      for (const listener of this.listeners) listener(shop, event);
    });
    this.shops.set(shop.domain, shop);
    this.byTokenHash.set(tokenHash(config.accessToken), shop);
    return shop;
  }

  /** Called for every product change of every shop (present and future). */
  onProductEvent(listener: ShopProductListener): void {
    this.listeners.push(listener);
  }
}

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64');
}
