import { Logger } from '@nestjs/common';
import { ConfigError } from '#lib/config';
import {
  loadShopifySandboxConfig,
  SANDBOX_API_VERSION,
  type ShopifySandboxConfig,
} from './config/shopify-sandbox.config.js';
import { createShopifySandbox } from './shopify-sandbox.js';

let config: ShopifySandboxConfig;
try {
  config = loadShopifySandboxConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`shopify-sandbox: ${error.message}\n`);
  process.exit(1);
}

const sandbox = await createShopifySandbox(config, { logger: ['log', 'error', 'warn'] });
sandbox.app.enableShutdownHooks();
const url = await sandbox.listen();
new Logger('ShopifySandbox').log(
  `Listening on ${url}: Admin API ${url}/admin/api/${SANDBOX_API_VERSION}/graphql.json, shops ${config.shops
    .map((shop) => shop.domain)
    .join(', ')}`,
);
