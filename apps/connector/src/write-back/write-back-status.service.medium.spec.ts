import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { uniqueId } from '#lib/testing';
import { mediumDatabase } from '../../test/support/medium-database.js';
import type { RetentionSettings } from '../platform/config/settings.js';
import type { ShopConfig } from '../platform/config/shop-config.js';
import { RetentionRegistry } from '../platform/reporting/retention-registry.service.js';
import { Shops } from '../shops/shops.js';
import { POLLED_CHECKPOINT } from './store/enrichment-checkpoint.entity.js';
import { EnrichmentOutboxRow } from './store/enrichment-outbox.entity.js';
import { EnrichmentOutbox } from './store/enrichment-outbox.repository.js';
import { EnrichmentPollRun } from './store/enrichment-poll-run.entity.js';
import { EnrichmentPollRuns } from './store/enrichment-poll-runs.repository.js';
import { WriteBackStateRow } from './store/write-back-state.entity.js';
import { type PushRecord, WriteBackStates } from './store/write-back-states.repository.js';
import { ENRICHMENT_ENTITIES } from './write-back.module.js';
import { WriteBackRetention } from './write-back-retention.service.js';
import { WriteBackStatus } from './write-back-status.service.js';

// Real PostgreSQL: the hooks' retention of the push history, finished polls and done work,
// and the history and status they give operations.
const database = mediumDatabase('enrops', ENRICHMENT_ENTITIES, { poolSize: 2 });
const DAY = 86_400_000;
const clock = new ManualClock(Date.UTC(2026, 10, 23, 10));
const shop = `${uniqueId('shop')}.myshopify.com`;
let dataSource: DataSource;
let states: WriteBackStates;
let outbox: EnrichmentOutbox;
let runs: EnrichmentPollRuns;
const registry = new RetentionRegistry();
let status: WriteBackStatus;

beforeAll(async () => {
  dataSource = await database.open();
  states = new WriteBackStates(dataSource.getRepository(WriteBackStateRow), clock);
  outbox = new EnrichmentOutbox(dataSource.getRepository(EnrichmentOutboxRow), clock);
  runs = new EnrichmentPollRuns(dataSource.getRepository(EnrichmentPollRun), clock);
  const retention = { pushHistoryMs: 90 * DAY, enrichmentRunsMs: 7 * DAY } as RetentionSettings;
  const shops = new Shops([{ domain: shop } as ShopConfig]);
  new WriteBackRetention(registry, outbox, runs, states, retention).onModuleInit();
  status = new WriteBackStatus(outbox, states, shops, clock);
});

afterAll(() => database.close());

const push = (attribute: string, result: PushRecord['result']): PushRecord => ({
  ownerId: 'gid://shopify/Product/42',
  attribute,
  target: 'seo.title',
  purpose: result === 'conflict' ? 'conflict' : 'push',
  valueHash: 'h',
  result,
});
/** What the retention job does with one registered table. */
const prune = (name: string) => {
  const table = registry.all().find((t) => t.name === name);
  if (!table) throw new Error(`${name} is not registered`);
  return table.prune(new Date(clock.now() - table.ageMs));
};

describe('the write-back in operations', () => {
  it('prunes push history, finished polls and done work older than their ages; keeps the rest', async () => {
    await states.save(shop, '42', { history: [push('old', 'ok')] });
    await runs.started('old-poll', 'admin');
    await runs.finished('old-poll', {});
    await outbox.add(shop, '42');
    await outbox.markDone(shop, '42', (await outbox.lastPending(shop, '42')) as string);
    await outbox.add(shop, '43');
    clock.set(clock.now() + 10 * DAY);
    await runs.started('new-poll', 'admin');
    await runs.finished('new-poll', {});
    clock.set(clock.now() + 85 * DAY);
    await states.save(shop, '42', { history: [push('new', 'ok')] });

    expect(await prune('write_back_push')).toBe(1);
    expect((await states.history(shop, '42')).map((row) => row.attribute)).toEqual(['new']);
    expect(await prune('enrichment_poll_run')).toBe(2);
    expect(await runs.find('new-poll')).toBeNull();
    // Done work goes; pending work never does.
    expect(await prune('enrichment_outbox')).toBe(1);
    expect(await outbox.pendingProducts(shop)).toEqual(['43']);
  });

  it('gives product status the history latest first, conflicts marked, and the poll status', async () => {
    await states.save(shop, '77', { history: [push('seoTitle', 'ok')] });
    await states.save(shop, '77', { history: [push('seoTitle', 'conflict')] });
    const history = await status.history(shop, '77', 10);
    expect(history.map((e) => [e.field, e.outcome, e.conflict, e.details.attribute])).toEqual([
      ['seo.title', 'conflict', true, 'seoTitle'],
      ['seo.title', 'ok', false, 'seoTitle'],
    ]);
    expect(await status.history(shop, '77', 1)).toHaveLength(1);

    expect(await status.enrichmentStatus()).toEqual({
      checkpoint: null,
      lagSeconds: null,
      polledAt: null,
      watchlistSize: 0,
    });
    // The newest enrichment the poll saw is half an hour old; the poll itself finished 30 s ago.
    const checkpoint = clock.now() - 1_800_000;
    const polled = clock.now() - 30_000;
    await outbox.commit({
      shop,
      pollId: null,
      checkpoints: { 'dataEnrichment.completedAt': checkpoint, [POLLED_CHECKPOINT]: polled },
      found: [],
      watch: [{ skuId: 'SKU-W', productId: '77', attributes: ['seoTitle'] }],
      unwatch: [],
    });
    expect(await status.enrichmentStatus()).toEqual({
      checkpoint: new Date(checkpoint).toISOString(),
      lagSeconds: 30,
      polledAt: new Date(polled).toISOString(),
      watchlistSize: 1,
    });
    expect(await status.pollLags()).toEqual(new Map([[shop, 30]]));
  });
});
