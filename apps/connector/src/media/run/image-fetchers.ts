import { Inject, Injectable } from '@nestjs/common';
import { CONNECTOR_CONFIG } from '../../connector.tokens.js';
import type { ConnectorConfig } from '../../platform/config/connector.config.js';
import { type AllowedSource, parseAllowlist, shopifyCdnAllowlist } from '../fetch/allowlist.js';
import { SafeImageFetcher } from '../fetch/safe-image-fetcher.js';

/**
 * One `SafeImageFetcher` per shop, on the configured allowlist (`CONNECTOR_MEDIA_ALLOWED_HOSTS`)
 * or else the shop's Shopify CDN hosts. The configured list is parsed when the app is built, so
 * a typo fails the boot instead of letting anything through.
 */
@Injectable()
export class ImageFetchers {
  private readonly configured: AllowedSource[] | null;
  private readonly byShop = new Map<string, SafeImageFetcher>();

  constructor(@Inject(CONNECTOR_CONFIG) config: ConnectorConfig) {
    this.configured = config.media.allowedHosts === null ? null : parseAllowlist(config.media.allowedHosts);
  }

  forShop(shop: string): SafeImageFetcher {
    let fetcher = this.byShop.get(shop);
    if (!fetcher) {
      fetcher = new SafeImageFetcher({ allowlist: this.configured ?? shopifyCdnAllowlist(shop) });
      this.byShop.set(shop, fetcher);
    }
    return fetcher;
  }
}
