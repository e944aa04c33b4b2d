import 'reflect-metadata';
import { resolve } from 'node:path';
import { Logger } from '@nestjs/common';
import { DEV_PORTAL_TOKEN, loadCatalogSandboxConfig } from './config/catalog-sandbox.config.js';
import { createCatalogSandbox } from './create-catalog-sandbox.js';
import { repoRoot } from './repo-root.js';

async function main(): Promise<void> {
  const config = loadCatalogSandboxConfig(process.env);
  if (config.seedPath !== null && process.env.CATALOG_SANDBOX_SEED === undefined) {
    config.seedPath = resolve(repoRoot(), config.seedPath);
  }
  const app = await createCatalogSandbox(config);
  app.enableShutdownHooks();
  await app.listen(config.http.port, '0.0.0.0');
  const logger = new Logger('CatalogSandbox');
  logger.log(
    `Catalog sandbox listening on http://127.0.0.1:${config.http.port} (API /v1, portal /portal/v1)`,
  );
  if (config.portal.token === DEV_PORTAL_TOKEN) {
    logger.warn(
      'Using the built-in development portal token; set CATALOG_SANDBOX_PORTAL_TOKEN outside local use.',
    );
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
