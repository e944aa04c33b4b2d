import type { LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { type AppHandle, appHandle } from '#lib/app-shell';
import { Clock, SystemClock } from '#lib/clock';
import { AppWebhooks } from './apps/app-webhooks.service.js';
import { PublicUrl } from './common/public-url.js';
import type { ShopifySandboxConfig } from './config/shopify-sandbox.config.js';
import { ShopifySandboxModule } from './shopify-sandbox.module.js';
import { ShopRegistry } from './shops/shop-registry.service.js';
import { WebhookDeliveryService } from './webhooks/webhook-delivery.service.js';

export interface ShopifySandboxOptions {
  /** Drives `updated_at`, cost-bucket restore and webhook retry back-off. Wall clock by default. */
  clock?: Clock;
  /** Nest's logger levels; `false` silences it. Defaults to errors and warnings. */
  logger?: LogLevel[] | false;
}

/** A created (not yet listening) Shopify sandbox: the common app handle, its shops and deliveries. */
export interface ShopifySandbox extends AppHandle {
  readonly shops: ShopRegistry;
  /** Resolves once no webhook delivery is pending (retries included). */
  idle(): Promise<void>;
}

/** Builds the sandbox in-process, for main.ts and for tests (through `#testing/shopify-sandbox`). */
export async function createShopifySandbox(
  config: ShopifySandboxConfig,
  options: ShopifySandboxOptions = {},
): Promise<ShopifySandbox> {
  const clock = options.clock ?? new SystemClock();
  const app = await NestFactory.create<NestExpressApplication>(ShopifySandboxModule.forRoot(config, clock), {
    bodyParser: false,
    logger: options.logger ?? ['error', 'warn'],
  });
  app.disable('x-powered-by');
  const publicUrl = app.get(PublicUrl);
  const deliveries = app.get(WebhookDeliveryService);
  const appWebhooks = app.get(AppWebhooks);
  const idle = async () => {
    await deliveries.idle();
    await appWebhooks.idle();
  };
  return appHandle(
    app,
    { host: config.host, port: config.port, onListening: (url) => publicUrl.set(config.publicUrl ?? url) },
    { shops: app.get(ShopRegistry), idle },
  );
}
