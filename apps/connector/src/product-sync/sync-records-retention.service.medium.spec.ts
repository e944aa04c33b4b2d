import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueId } from '#lib/testing';
import { mediumDatabase } from '../../test/support/medium-database.js';
import type { RetentionSettings } from '../platform/config/settings.js';
import { RetentionRegistry } from '../platform/reporting/retention-registry.service.js';
import { SyncRecordRow } from './sync-record.entity.js';
import { SyncRecords } from './sync-records.repository.js';
import { SyncRecordsRetention } from './sync-records-retention.service.js';

// The sync stage registers its run records with the retention job itself; against real
// PostgreSQL (the connector's migrations, a schema of this file's own).
const database = mediumDatabase('syncrec', [SyncRecordRow]);
const { schema } = database;
const DAY = 86_400_000;
const now = Date.UTC(2027, 10, 23, 10);
let dataSource: DataSource;

beforeAll(async () => {
  dataSource = await database.open();
});

afterAll(() => database.close());

describe('sync records retention', () => {
  it('registers sync_records with its configured age; pruning deletes the runs finished before it', async () => {
    const records = new SyncRecords(dataSource.getRepository(SyncRecordRow));
    const shop = `${uniqueId('shop')}.myshopify.com`;
    for (const [productId, daysAgo] of [
      ['1', 45],
      ['2', 31],
      ['3', 29],
      ['4', 0],
    ] as const) {
      const at = new Date(now - daysAgo * DAY);
      await records.add({
        shop,
        productId,
        jobId: null,
        reason: 'webhook',
        outcome: 'synced',
        detail: null,
        calls: [],
        events: [],
        error: null,
        startedAt: at,
        finishedAt: at,
      });
    }
    const registry = new RetentionRegistry();
    new SyncRecordsRetention(registry, records, {
      syncRecordsMs: 30 * DAY,
    } as RetentionSettings).onModuleInit();
    const [table] = registry.all();
    expect(registry.all()).toHaveLength(1);
    expect(table).toMatchObject({ name: 'sync_records', ageMs: 30 * DAY });

    expect(await table?.prune(new Date(now - 30 * DAY))).toBe(2);
    const left = await dataSource.query(
      `SELECT product_id::text FROM "${schema}".sync_records WHERE shop = $1 ORDER BY product_id`,
      [shop],
    );
    expect(left.map((row: { product_id: string }) => row.product_id)).toEqual(['3', '4']);
    expect(await table?.prune(new Date(now - 30 * DAY))).toBe(0);
  });
});
