import type { LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type AppHandle, appHandle } from '#lib/app-shell';
import { Clock, SystemClock } from '#lib/clock';
import { AccountRegistry } from './accounts/account.registry.js';
import { CatalogSandboxModule } from './catalog-sandbox.module.js';
import type { CatalogSandboxConfig } from './config/catalog-sandbox.config.js';

export interface CatalogSandboxOptions {
  /** Drives the rate limit, uploads and enrichment runs. Wall clock by default. */
  clock?: Clock;
  /** Nest's logger levels; `false` silences it. Defaults to log, warnings and errors. */
  logger?: LogLevel[] | false;
}

/** A created (not yet listening) catalog sandbox: the common app handle and its accounts. */
export interface CatalogSandbox extends AppHandle {
  readonly accounts: AccountRegistry;
}

/** Builds the sandbox in-process, for main.ts and for tests (through `#testing/catalog-sandbox`). */
export async function createCatalogSandbox(
  config: CatalogSandboxConfig,
  options: CatalogSandboxOptions = {},
): Promise<CatalogSandbox> {
  const app = await NestFactory.create(
    CatalogSandboxModule.forRoot(config, options.clock ?? new SystemClock()),
    {
      bodyParser: false,
      logger: options.logger ?? ['log', 'warn', 'error'],
    },
  );
  app.getHttpAdapter().getInstance().disable('x-powered-by');
  return appHandle(
    app,
    { host: config.http.host, port: config.http.port },
    { accounts: app.get(AccountRegistry) },
  );
}
