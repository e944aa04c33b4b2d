import { Injectable, type OnModuleInit } from '@nestjs/common';
import { RetentionSettings } from '../platform/config/settings.js';
import { RetentionRegistry } from '../platform/reporting/retention-registry.service.js';
import { SyncRecords } from './sync-records.repository.js';

/**
 * Why: every sync run writes a record, so `sync_records` grows with every change of every
 * product. The sync stage registers its own table with the retention job (base, so no import of
 * operations): runs finished longer ago than `CONNECTOR_RETENTION_SYNC_RECORDS_DAYS` go.
 */
@Injectable()
export class SyncRecordsRetention implements OnModuleInit {
  constructor(
    private readonly registry: RetentionRegistry,
    private readonly records: SyncRecords,
    private readonly settings: RetentionSettings,
  ) {}

  onModuleInit(): void {
    this.registry.register({
      name: 'sync_records',
      ageMs: this.settings.syncRecordsMs,
      prune: (before) => this.records.pruneFinishedBefore(before),
    });
  }
}
