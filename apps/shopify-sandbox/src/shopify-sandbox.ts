import type { AddressInfo } from 'node:net';
import type { INestApplication, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Clock, SystemClock } from '#lib/clock';
import { PublicUrl } from './common/public-url.js';
import type { ShopifySandboxConfig } from './config/shopify-sandbox.config.js';
import { shopifySandboxModule } from './shopify-sandbox.module.js';
import { ShopRegistry } from './shops/shop-registry.service.js';
import { WebhookDeliveryService } from './webhooks/webhook-delivery.service.js';

export interface ShopifySandboxOptions {
  /** Drives `updated_at`, cost-bucket restore and webhook retry back-off. Wall clock by default. */
  clock?: Clock;
  /** Nest's logger levels; `false` silences it. Defaults to errors and warnings. */
  logger?: LogLevel[] | false;
}

/** A running (or ready to run) sandbox. */
export interface ShopifySandbox {
  readonly app: INestApplication;
  /** Starts listening (port 0 picks a free one); resolves to the base URL. */
  listen(port?: number): Promise<string>;
  /** Base URL, e.g. `http://127.0.0.1:4020`; known once listening. */
  readonly url: string;
  readonly shops: ShopRegistry;
  /** Resolves once no webhook delivery is pending (retries included). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** Builds the sandbox app in-process, for main.ts and for other projects' tests. */
export async function createShopifySandbox(
  config: ShopifySandboxConfig,
  options: ShopifySandboxOptions = {},
): Promise<ShopifySandbox> {
  const clock = options.clock ?? new SystemClock();
  const app = await NestFactory.create<NestExpressApplication>(shopifySandboxModule(config, clock), {
    bodyParser: false,
    logger: options.logger ?? ['error', 'warn'],
  });
  app.useBodyParser('json', { limit: '25mb' });
  app.useBodyParser('text', { type: 'application/graphql', limit: '1mb' });
  app.disable('x-powered-by');
  const publicUrl = app.get(PublicUrl);
  const deliveries = app.get(WebhookDeliveryService);
  let url: string | undefined;
  return {
    app,
    shops: app.get(ShopRegistry),
    async listen(port = config.port) {
      await app.listen(port, config.host);
      const address = app.getHttpServer().address() as AddressInfo;
      const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
      url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
      publicUrl.set(config.publicUrl ?? url);
      return url;
    },
    get url() {
      if (url === undefined) throw new Error('The sandbox is not listening yet');
      return url;
    },
    idle: () => deliveries.idle(),
    close: () => app.close(),
  };
}
