import type { INestApplication, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Clock, SystemClock } from '#lib/clock';
import { CatalogSandboxModule } from './catalog-sandbox.module.js';
import type { CatalogSandboxConfig } from './config/catalog-sandbox.config.js';

export interface CatalogSandboxOptions {
  clock?: Clock;
  logLevels?: LogLevel[] | false;
}

/** Builds the sandbox application (not yet listening). */
export async function createCatalogSandbox(
  config: CatalogSandboxConfig,
  options: CatalogSandboxOptions = {},
): Promise<INestApplication> {
  const app = await NestFactory.create(
    CatalogSandboxModule.forRoot(config, options.clock ?? new SystemClock()),
    {
      bodyParser: false,
      logger: options.logLevels ?? ['log', 'warn', 'error'],
    },
  );
  app.getHttpAdapter().getInstance().disable('x-powered-by');
  return app;
}
