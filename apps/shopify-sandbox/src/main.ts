import { Logger } from '@nestjs/common';
import { loadShopifySandboxConfig } from './config/shopify-sandbox.config.js';
import { createShopifySandbox } from './shopify-sandbox.js';

const config = loadShopifySandboxConfig(process.env);
const sandbox = await createShopifySandbox(config, { logger: ['log', 'error', 'warn'] });
sandbox.app.enableShutdownHooks();
const url = await sandbox.listen();
new Logger('ShopifySandbox').log(
  `Shopify sandbox listening on ${url} (Admin API ${url}/admin/api/2026-07/graphql.json) for ${config.shops
    .map((shop) => shop.domain)
    .join(', ')}`,
);
