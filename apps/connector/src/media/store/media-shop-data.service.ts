import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ShopDataRegistry } from '../../platform/reporting/shop-data-registry.service.js';
import { PgGalleryStateRepository } from './gallery-state.repository.js';
import { PgImageMapRepository } from './image-map.repository.js';
import { MediaStatusRepository } from './media-status.repository.js';

/** Why: a redacted shop's image map, gallery states and media statuses go (`shop/redact`). */
@Injectable()
export class MediaShopData implements OnModuleInit {
  constructor(
    private readonly registry: ShopDataRegistry,
    private readonly images: PgImageMapRepository,
    private readonly galleries: PgGalleryStateRepository,
    private readonly statuses: MediaStatusRepository,
  ) {}

  onModuleInit(): void {
    this.registry.register({
      tables: ['media_gallery_state', 'media_image_map', 'media_product_status'],
      purge: async (shop) =>
        (await this.images.purgeShop(shop)) +
        (await this.galleries.purgeShop(shop)) +
        (await this.statuses.purgeShop(shop)),
    });
  }
}
