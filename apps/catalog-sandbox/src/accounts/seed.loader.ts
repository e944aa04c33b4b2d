import { readFileSync } from 'node:fs';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { SANDBOX_CONFIG } from '../catalog-sandbox.tokens.js';
import type { CatalogSandboxConfig } from '../config/catalog-sandbox.config.js';
import { AccountRegistry } from './account.registry.js';
import { parseAccountDefinition } from './account-definition.js';

/** Loads the seed file's accounts at boot: `{"accounts": [<account definition>, ...]}`. */
@Injectable()
export class SeedLoader implements OnModuleInit {
  private readonly logger = new Logger('CatalogSandboxSeed');

  constructor(
    @Inject(SANDBOX_CONFIG) private readonly config: CatalogSandboxConfig,
    private readonly registry: AccountRegistry,
  ) {}

  onModuleInit(): void {
    const path = this.config.seedPath;
    if (path === null) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      throw new Error(`Cannot read the seed file ${path}: ${(error as Error).message}`);
    }
    const accounts = (parsed as { accounts?: unknown }).accounts;
    if (!Array.isArray(accounts)) throw new Error(`The seed file ${path} must hold {"accounts": [...]}`);
    for (const [i, definition] of accounts.entries()) {
      try {
        this.registry.create(parseAccountDefinition(definition));
      } catch (error) {
        throw new Error(`Seed file ${path}, accounts[${i}]: ${(error as Error).message}`);
      }
    }
    this.logger.log(`Loaded ${accounts.length} account(s) from ${path}`);
  }
}
