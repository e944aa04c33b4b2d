import { type DynamicModule, Module } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { IdSequence } from './common/id-sequence.js';
import { PublicUrl } from './common/public-url.js';
import { SANDBOX_CONFIG } from './config/sandbox-config.token.js';
import type { ShopifySandboxConfig } from './config/shopify-sandbox.config.js';
import { ControlController } from './control/control.controller.js';
import { AdminGraphqlController } from './graphql/admin-graphql.controller.js';
import { AdminGraphqlService } from './graphql/admin-graphql.service.js';
import { ImageIngest } from './images/image-ingest.service.js';
import { ImagesController } from './images/images.controller.js';
import { MerchantInventoryController } from './merchant/merchant-inventory.controller.js';
import { MerchantProductsController } from './merchant/merchant-products.controller.js';
import { ProductEditor } from './merchant/product-editor.service.js';
import { ShopRegistry } from './shops/shop-registry.service.js';
import { WebhookDeliveryService } from './webhooks/webhook-delivery.service.js';

@Module({})
export class ShopifySandboxModule {}

/** The whole sandbox, for one configuration and clock. */
export function shopifySandboxModule(config: ShopifySandboxConfig, clock: Clock): DynamicModule {
  return {
    module: ShopifySandboxModule,
    controllers: [
      AdminGraphqlController,
      MerchantProductsController,
      MerchantInventoryController,
      ImagesController,
      ControlController,
    ],
    providers: [
      { provide: SANDBOX_CONFIG, useValue: config },
      { provide: Clock, useValue: clock },
      { provide: IdSequence, useValue: new IdSequence() },
      PublicUrl,
      ShopRegistry,
      ProductEditor,
      ImageIngest,
      WebhookDeliveryService,
      AdminGraphqlService,
    ],
  };
}
