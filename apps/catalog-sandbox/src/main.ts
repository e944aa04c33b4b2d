import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createCatalogSandbox, DEV_PORTAL_TOKEN, loadCatalogSandboxConfig } from './index.js';

// environment -> config -> create -> listen (README, "Contributing").
async function main(): Promise<void> {
  const config = loadCatalogSandboxConfig(process.env);
  const sandbox = await createCatalogSandbox(config);
  sandbox.app.enableShutdownHooks();
  const url = await sandbox.listen();
  const logger = new Logger('CatalogSandbox');
  logger.log(`Catalog sandbox listening on ${sandbox.address} (${url}: API /v1, portal /portal/v1)`);
  if (config.portal.token === DEV_PORTAL_TOKEN) {
    logger.warn(
      'Using the built-in development portal token; set CATALOG_SANDBOX_PORTAL_TOKEN outside local use.',
    );
  }
}

main().catch((error: unknown) => {
  // A ConfigError names every bad variable; anything else (a port in use, a bad seed) says what failed.
  process.stderr.write(`catalog-sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
