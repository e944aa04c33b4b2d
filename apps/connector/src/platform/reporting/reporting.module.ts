import { Global, Module } from '@nestjs/common';
import { DependencyHealth } from './dependency-health.service.js';
import { Observations } from './observations.service.js';
import { RetentionRegistry } from './retention-registry.service.js';
import { ShopDataRegistry } from './shop-data-registry.service.js';

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
