import { Module } from '@nestjs/common';
import { DriftModule } from '../../drift/drift.module.js';
import { MappingModule } from '../../mapping/mapping.module.js';
import { ProductSyncModule } from '../../product-sync/product-sync.module.js';
import { ResyncModule } from '../../resync/resync.module.js';
import { WriteBackModule } from '../../write-back/write-back.module.js';
import { AdminTokenGuard } from '../admin/admin-token.guard.js';
import { AdminRunsController } from './admin-runs.controller.js';
import { RunHistory } from './run-history.service.js';
import { RunTimes } from './run-times.service.js';

/** The run history (`GET /admin/runs`, error reports) and each shop's last and next runs (the overview's). */
@Module({
  imports: [DriftModule, MappingModule, ProductSyncModule, ResyncModule, WriteBackModule],
  controllers: [AdminRunsController],
  providers: [RunHistory, RunTimes, AdminTokenGuard],
  exports: [RunHistory, RunTimes],
})
export class RunsModule {}
