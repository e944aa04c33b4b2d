import { Injectable } from '@nestjs/common';
import { MediaSettings } from '../../platform/config/settings.js';
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

  constructor(settings: MediaSettings) {
    this.configured = settings.allowedHosts === null ? null : parseAllowlist(settings.allowedHosts);
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
