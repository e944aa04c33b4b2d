import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { OperationsSeams } from '../../platform/health/operations-seams.js';
import { SyncRecords } from '../../product-sync/sync-records.repository.js';

/**
 * Puts the sync engine's run records in a product's timeline (their catalog calls, outcome and
 * error), from this side: operations may import the sync stage, and the timeline is theirs. The
 * records' retention is the sync stage's own (`sync/sync-records-retention.ts`).
 */
@Injectable()
export class SyncRecordsTimeline implements OnModuleInit {
  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly seams: OperationsSeams,
  ) {}

  onModuleInit(): void {
    const records = this.moduleRef.get(SyncRecords, { strict: false });
    this.seams.addTimelineSource({
      name: 'sync_records',
      events: async (shop, productId, limit) =>
        (await records.ofProduct(shop, productId, limit)).map((run) => ({
          at: run.finishedAt.toISOString(),
          kind: 'sync',
          summary: `sync (${run.reason}) ${run.outcome}${run.detail ? `: ${run.detail}` : ''}; ${run.calls.length} catalog call(s)`,
          details: {
            calls: run.calls.map((call) => `${call.method} ${call.path} ${call.status ?? 'no answer'}`),
            ...(run.error ? { error: run.error.code } : {}),
          },
        })),
    });
  }
}
