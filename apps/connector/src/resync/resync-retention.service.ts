import { Injectable, type OnModuleInit } from '@nestjs/common';
import { RetentionSettings } from '../platform/config/settings.js';
import { RetentionRegistry } from '../platform/reporting/retention-registry.service.js';
import { ResyncRunsRepository } from './resync-runs.repository.js';

/**
 * Why: a resync run lists every product of a shop, so the run tables grow with each whole-shop
 * resync. Registers them with the retention job: runs that ended (`done`, `cancelled`) longer
 * ago than `CONNECTOR_RETENTION_RESYNC_RUNS_DAYS` go, their listed products first (two entries,
 * so the job's result counts both); running and failed runs (a replay reopens them) stay.
 */
@Injectable()
export class ResyncRetention implements OnModuleInit {
  constructor(
    private readonly registry: RetentionRegistry,
    private readonly runs: ResyncRunsRepository,
    private readonly settings: RetentionSettings,
  ) {}

  onModuleInit(): void {
    const ageMs = this.settings.resyncRunsMs;
    this.registry.register({
      name: 'resync_run_products',
      ageMs,
      prune: (before) => this.runs.products.pruneFinishedProductsBefore(before),
    });
    this.registry.register({
      name: 'resync_runs',
      ageMs,
      prune: (before) => this.runs.pruneFinishedBefore(before),
    });
  }
}
