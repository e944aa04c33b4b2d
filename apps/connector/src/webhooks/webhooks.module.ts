import { Module } from '@nestjs/common';
import { InboxModule } from '../inbox/inbox.module.js';
import { ShopifyModule } from '../shopify/shopify.module.js';
import { WebhookSubscriptions } from './webhook-subscriptions.js';
import { WebhooksController } from './webhooks.controller.js';

/** ① The door: signed deliveries in, and the shops' subscriptions pointing at it. */
@Module({
  imports: [InboxModule, ShopifyModule],
  controllers: [WebhooksController],
  providers: [WebhookSubscriptions],
  exports: [WebhookSubscriptions],
})
export class WebhooksModule {}
