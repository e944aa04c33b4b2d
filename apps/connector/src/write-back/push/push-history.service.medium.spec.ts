import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { uniqueId } from '#lib/testing';
import { mediumDatabase } from '../../../test/support/medium-database.js';
import {
  approved,
  catalogRecord,
  entered,
  pending,
  rejected,
} from '../../../test/support/write-back-mapping.js';
import { PlannedWriteRow } from '../../product-sync/planned/planned-write.entity.js';
import { PlannedWritesRepository } from '../../product-sync/planned/planned-writes.repository.js';
import { EnrichmentOutboxRow } from '../store/enrichment-outbox.entity.js';
import { EnrichmentOutbox } from '../store/enrichment-outbox.repository.js';
import { WriteBackStateRow } from '../store/write-back-state.entity.js';
import { WriteBackStates } from '../store/write-back-states.repository.js';
import { ENRICHMENT_ENTITIES } from '../write-back.module.js';
import { WRITE_BACK_SOURCE } from './planned-write-backs.js';
import { PushHistory } from './push-history.service.js';

// Real PostgreSQL: which changed products a poll leaves without push work (a resync's new
// records), and which keep it (something to push, or history a change may take back).
const database = mediumDatabase('pushhist', [...ENRICHMENT_ENTITIES, PlannedWriteRow], { poolSize: 2 });
const clock = new ManualClock(Date.UTC(2026, 10, 27, 10));
const shop = `${uniqueId('shop')}.myshopify.com`;
const ATTRIBUTES = ['seoTitle', 'seoDescription'];
let dataSource: DataSource;
let history: PushHistory;
let outbox: EnrichmentOutbox;

beforeAll(async () => {
  dataSource = await database.open();
  outbox = new EnrichmentOutbox(dataSource.getRepository(EnrichmentOutboxRow), clock);
  history = new PushHistory(
    new WriteBackStates(dataSource.getRepository(WriteBackStateRow), clock),
    new PlannedWritesRepository(dataSource.getRepository(PlannedWriteRow)),
    outbox,
  );
});

afterAll(() => database.close());

const stateRow = (forShop: string, productId: string) => ({
  shop: forShop,
  productId,
  ownerId: `gid://shopify/Product/${productId}`,
  attribute: 'seoTitle',
  targetKey: 'seo.title',
  status: 'pushed' as const,
  valueHash: 'h',
  restore: null,
  tags: null,
  removedTags: null,
  intent: null,
  updatedAt: new Date(clock.now()),
});

const plannedRow = (productId: string, source: string) => ({
  shop,
  productId,
  source,
  seq: 0,
  kind: 'seo',
  method: 'MUTATION',
  path: 'productUpdate',
  supplierSku: null,
  body: null,
  before: null,
  after: null,
  plannedAt: new Date(clock.now()),
});

describe('PushHistory.idle', () => {
  it('leaves out only products whose changed records hold nothing to push and that have no push history', async () => {
    const nothing = (sku: string) => catalogRecord(sku, []);
    await dataSource
      .getRepository(WriteBackStateRow)
      .insert([stateRow(shop, '103'), stateRow('other.myshopify.com', '102')]);
    await dataSource
      .getRepository(PlannedWriteRow)
      .insert([plannedRow('104', WRITE_BACK_SOURCE), plannedRow('106', 'sync')]);
    await outbox.commit({
      shop,
      pollId: 'earlier',
      checkpoints: {},
      found: [{ skuId: 'S105', productId: '105', contentHash: 'h1' }],
      watch: [],
      unwatch: [],
    });

    const idle = await history.idle(
      shop,
      [
        { productId: '101', records: [catalogRecord('S101', [approved('seoTitle', 'Approved')])] },
        { productId: '102', records: [nothing('S102')] },
        { productId: '103', records: [nothing('S103')] },
        { productId: '104', records: [catalogRecord('S104', [rejected('seoTitle', 'No')])] },
        { productId: '105', records: [nothing('S105')] },
        { productId: '106', records: [nothing('S106')] },
        {
          productId: '107',
          records: [nothing('S107p'), catalogRecord('S107v', [entered('seoDescription', 'Typed')])],
        },
        { productId: '108', records: [catalogRecord('S108', [pending('seoTitle', 'Awaiting review')])] },
        {
          productId: '109',
          records: [catalogRecord('S109', [approved('otherAttribute', 'Not written back')])],
        },
      ],
      ATTRIBUTES,
    );

    // 101 approved and 107 entered: something to push. 103 pushed before, 104 planned in shadow,
    // 105 with pending work: a change may take back or settle. 102's state is another shop's,
    // 106's plan is the product sync's, 108 awaits review, 109's value is not a write-back one.
    expect([...idle].sort()).toEqual(['102', '106', '108', '109']);
  });

  it('asks the database nothing when every changed product holds something to push', async () => {
    const unread = () => Promise.reject(new Error('read'));
    const stores = { productsAmong: unread, pendingAmong: unread };
    const noReads = new PushHistory(
      stores as unknown as WriteBackStates,
      stores as unknown as PlannedWritesRepository,
      stores as unknown as EnrichmentOutbox,
    );
    const idle = await noReads.idle(
      shop,
      [{ productId: '201', records: [catalogRecord('S201', [approved('seoTitle', 'A')])] }],
      ATTRIBUTES,
    );
    expect(idle.size).toBe(0);
  });

  it('lets the poll commit mark idle products seen without adding work for them', async () => {
    const found = [
      { skuId: 'S301', productId: '301', contentHash: 'a' },
      { skuId: 'S302', productId: '302', contentHash: 'b' },
    ];
    const committed = await outbox.commit({
      shop,
      pollId: 'resync-creates',
      checkpoints: {},
      found,
      watch: [],
      unwatch: [],
      idle: new Set(['302']),
    });
    expect(committed).toEqual({ changed: ['S301', 'S302'], products: ['301'] });
    expect(await outbox.pendingAmong(shop, ['301', '302'])).toEqual(new Set(['301']));
    // Both hashes are stored: the next poll finds neither changed.
    expect((await outbox.unseen(shop, found)).size).toBe(0);
  });
});
