import { Injectable, type OnModuleInit } from '@nestjs/common';
import { RetentionSettings } from '../platform/config/settings.js';
import { RetentionRegistry } from '../platform/reporting/retention-registry.service.js';
import { ShopDataRegistry } from '../platform/reporting/shop-data-registry.service.js';
import { DriftReportsRepository } from './store/drift-reports.repository.js';

/**
 * Why: reports pile up (one a day per shop, each with its findings). Reports older than the sync
 * records' retention (`CONNECTOR_RETENTION_SYNC_RECORDS_DAYS`) go with their findings; a redacted
 * shop's reports go at once (`shop/redact`).
 */
@Injectable()
export class DriftRetention implements OnModuleInit {
  constructor(
    private readonly retention: RetentionRegistry,
    private readonly shopData: ShopDataRegistry,
    private readonly reports: DriftReportsRepository,
    private readonly settings: RetentionSettings,
  ) {}

  onModuleInit(): void {
    this.retention.register({
      name: 'drift_reports',
      ageMs: this.settings.syncRecordsMs,
      prune: (before) => this.reports.pruneBefore(before),
    });
    this.shopData.register({
      tables: ['drift_findings', 'drift_reports'],
      purge: (shop) => this.reports.purgeShop(shop),
    });
  }
}
