import { type DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import { ShopifyModule } from '../clients/shopify/shopify.module.js';
import { WebhookSubscriptions } from './webhook-subscriptions.js';
import { WebhooksController } from './webhooks.controller.js';

/** ① The door: signed deliveries in, and the shops' subscriptions pointing at it. */
@Module({})
export class WebhooksModule {}

/**
 * `inbox`: the modules that provide `DELIVERY_INBOX` (the inbox stage). The composition root
 * passes them in, so the door never imports a later stage.
 */
export function webhooksModule(inbox: NonNullable<ModuleMetadata['imports']>): DynamicModule {
  return {
    module: WebhooksModule,
    imports: [...inbox, ShopifyModule],
    controllers: [WebhooksController],
    providers: [WebhookSubscriptions],
    exports: [WebhookSubscriptions],
  };
}
