import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createShopifySandbox, loadShopifySandboxConfig, SANDBOX_API_VERSION } from './index.js';

// environment -> config -> create -> listen (README, "Contributing").
async function main(): Promise<void> {
  const config = loadShopifySandboxConfig(process.env);
  const sandbox = await createShopifySandbox(config, { logger: ['log', 'error', 'warn'] });
  sandbox.app.enableShutdownHooks();
  const url = await sandbox.listen();
  new Logger('ShopifySandbox').log(
    `Listening on ${sandbox.address} (${url}): Admin API ${url}/admin/api/${SANDBOX_API_VERSION}/graphql.json, shops ${config.shops
      .map((shop) => shop.domain)
      .join(', ')}`,
  );
}

main().catch((error: unknown) => {
  // A ConfigError names every bad variable; anything else (a port in use) says what failed.
  process.stderr.write(`shopify-sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
