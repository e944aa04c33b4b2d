import { Global, Module } from '@nestjs/common';
import { DependencyHealth } from './dependency-health.js';
import { Observations } from './observations.js';
import { RetentionRegistry } from './retention-registry.js';

/**
 * The registries through which every feature reports to the platform: observations (the metrics
 * read them), dependency checks (health), the tables retention prunes. Global, so a feature
 * injects them without importing a module.
 */
@Global()
@Module({
  providers: [Observations, DependencyHealth, RetentionRegistry],
  exports: [Observations, DependencyHealth, RetentionRegistry],
})
export class ReportingModule {}
