import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '../clients/catalog/catalog.module.js';
import { ShopifyModule } from '../clients/shopify/shopify.module.js';
import { IntakeModule } from '../intake/intake.module.js';
import { MappingModule } from '../mapping/mapping.module.js';
import { FailuresModule } from '../platform/failures/failures.module.js';
import { SkuMapModule } from '../product-sync/sku-map/sku-map.module.js';
import { WrittenBackValuesModule } from '../product-sync/written-back-values.service.js';
import { DriftService } from './drift.service.js';
import { DriftDeleteCheck } from './drift-delete-check.service.js';
import { DriftOwnership } from './drift-ownership.service.js';
import { DriftRepairs } from './drift-repairs.service.js';
import { DriftReportJob } from './drift-report.job.js';
import { DriftReportReplay } from './drift-report-replay.service.js';
import { DriftRetention } from './drift-retention.service.js';
import { DriftShopifyReader } from './read/drift-shopify.service.js';
import { DriftFindingRow } from './store/drift-finding-row.entity.js';
import { DriftReport } from './store/drift-report.entity.js';
import { DriftReportsRepository } from './store/drift-reports.repository.js';

/**
 * ⑦ Convergence, seen: the drift report (where Shopify, the sku map and the catalog disagree),
 * its stored reports and findings. It reads and reports; repairs wait for an operator.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([DriftReport, DriftFindingRow]),
    SkuMapModule,
    MappingModule,
    CatalogModule,
    ShopifyModule,
    IntakeModule,
    FailuresModule,
    WrittenBackValuesModule,
  ],
  providers: [
    DriftReportsRepository,
    DriftShopifyReader,
    DriftService,
    DriftRetention,
    DriftRepairs,
    DriftOwnership,
    DriftDeleteCheck,
    DriftReportJob,
    DriftReportReplay,
  ],
  exports: [DriftService, DriftReportsRepository, DriftRepairs],
})
export class DriftModule {}
