import { Global, Module } from '@nestjs/common';
import { RetentionRegistry } from '../database/retention-registry.js';
import { ShopDataRegistry } from '../database/shop-data-registry.js';
import { DependencyHealth } from './dependency-health.js';
import { Observations } from './observations.js';

/**
 * The registries through which every feature reports to the platform: observations (the metrics
 * read them), dependency checks (health), the tables retention prunes, the tables a shop's
 * redaction purges. Global, so a feature
 * injects them without importing a module.
 */
@Global()
@Module({
  providers: [Observations, DependencyHealth, RetentionRegistry, ShopDataRegistry],
  exports: [Observations, DependencyHealth, RetentionRegistry, ShopDataRegistry],
})
export class ReportingModule {}
