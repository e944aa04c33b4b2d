import {
  type DynamicModule,
  type MiddlewareConsumer,
  Module,
  type NestModule,
  RequestMethod,
} from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { Clock } from '#lib/clock';
import { AppControlController } from './apps/app-control.controller.js';
import { AppLifecycle } from './apps/app-lifecycle.service.js';
import { AppRegistry } from './apps/app-registry.service.js';
import { AppWebhooks } from './apps/app-webhooks.service.js';
import { OAuthController } from './apps/oauth.controller.js';
import { OAuthService } from './apps/oauth.service.js';
import { IdSequence } from './common/id-sequence.js';
import { PublicUrl } from './common/public-url.js';
import type { ShopifySandboxConfig } from './config/shopify-sandbox.config.js';
import { ControlController } from './control/control.controller.js';
import { AdminGraphqlController } from './graphql/admin-graphql.controller.js';
import { AdminGraphqlService } from './graphql/admin-graphql.service.js';
import { RequestBodyMiddleware } from './http/request-body.middleware.js';
import { RouteCheckMiddleware } from './http/route-check.middleware.js';
import { ShopifyExceptionFilter } from './http/shopify-exception.filter.js';
import { ImageIngest } from './images/image-ingest.service.js';
import { ImagesController } from './images/images.controller.js';
import { MerchantInventoryController } from './merchant/merchant-inventory.controller.js';
import { MerchantProductsController } from './merchant/merchant-products.controller.js';
import { ProductEditor } from './merchant/product-editor.service.js';
import { SANDBOX_CONFIG } from './shopify-sandbox.tokens.js';
import { ShopRegistry } from './shops/shop-registry.service.js';
import { WebhookDeliveryService } from './webhooks/webhook-delivery.service.js';

// Routes that take a request body (the CDN serves GETs only).
const BODY_CONTROLLERS = [
  AdminGraphqlController,
  MerchantProductsController,
  MerchantInventoryController,
  ControlController,
  AppControlController,
];

/** The whole sandbox, for one configuration and clock. */
@Module({})
export class ShopifySandboxModule implements NestModule {
  static forRoot(config: ShopifySandboxConfig, clock: Clock): DynamicModule {
    return {
      module: ShopifySandboxModule,
      // The OAuth endpoints read their own bodies (form-encoded or JSON).
      controllers: [...BODY_CONTROLLERS, ImagesController, OAuthController],
      providers: [
        { provide: APP_FILTER, useClass: ShopifyExceptionFilter },
        { provide: SANDBOX_CONFIG, useValue: config },
        { provide: Clock, useValue: clock },
        { provide: IdSequence, useValue: new IdSequence() },
        PublicUrl,
        ShopRegistry,
        ProductEditor,
        ImageIngest,
        WebhookDeliveryService,
        AdminGraphqlService,
        AppRegistry,
        OAuthService,
        AppWebhooks,
        AppLifecycle,
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    // Unknown paths and wrong methods first (404, 405), then bodies, then guards and handlers.
    consumer.apply(RouteCheckMiddleware).forRoutes({ path: '*path', method: RequestMethod.ALL });
    consumer.apply(RequestBodyMiddleware).forRoutes(...BODY_CONTROLLERS);
  }
}
