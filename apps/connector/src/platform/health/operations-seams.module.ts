import { Global, Module } from '@nestjs/common';
import { RetentionRegistry } from '../database/retention-registry.js';
import { DependencyHealth } from './dependency-health.js';
import { Observations } from './observations.js';
import { OperationsSeams } from './operations-seams.js';

/**
 * The base registries through which every part reports to operations, which nothing may
 * import: observations (metrics), dependency checks, retention, the operators' views' seams.
 * Global, so a stage injects them without importing a module of operations.
 */
@Global()
@Module({
  providers: [Observations, DependencyHealth, OperationsSeams, RetentionRegistry],
  exports: [Observations, DependencyHealth, OperationsSeams, RetentionRegistry],
})
export class OperationsSeamsModule {}
