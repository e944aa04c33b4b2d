import type { ShopConfig } from '../platform/config/shop-config.js';

/**
 * Why: the shops the connector serves, and each one's settings, in one place every feature asks
 * (today the configured `CONNECTOR_SHOPS`; shops that install the app join them later).
 */
export class Shops {
  constructor(readonly all: readonly ShopConfig[]) {}

  /** The shop with this domain (any case), if the connector serves it. */
  find(domain: string): ShopConfig | undefined {
    const wanted = domain.toLowerCase();
    return this.all.find((shop) => shop.domain === wanted);
  }
}
