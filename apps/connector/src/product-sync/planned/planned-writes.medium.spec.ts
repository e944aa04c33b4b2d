import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueId } from '#lib/testing';
import { mediumDatabase } from '../../../test/support/medium-database.js';
import { PlannedWriteRow } from './planned-write.entity.js';
import { type PlannedWrite, PlannedWritesRepository } from './planned-writes.repository.js';

// Each source's plan of a product stands alone: the sync's, the media's and the write-back's
// (issue 31). A live sync clears what it superseded but leaves the write-back's to the next push;
// against real PostgreSQL (the connector's migrations, a schema of this file's own).
const database = mediumDatabase('planned', [PlannedWriteRow]);
let dataSource: DataSource;

beforeAll(async () => {
  dataSource = await database.open();
});

afterAll(() => database.close());

const write = (kind: string, over: Partial<PlannedWrite> = {}): PlannedWrite => ({
  kind,
  method: 'POST',
  path: '/v1/products',
  supplierSku: 'A',
  body: {},
  before: null,
  after: { name: 'x' },
  ...over,
});

describe('planned writes', () => {
  it('keeps each source apart; a live sync clears all but the write-back; gaps are stored', async () => {
    const planned = new PlannedWritesRepository(dataSource.getRepository(PlannedWriteRow));
    const shop = `${uniqueId('shop')}.myshopify.com`;
    const at = new Date('2026-11-27T00:00:00Z');
    const gaps = [{ attribute: 'color', entry: 'variant.options.Color', message: 'unknown value' }];
    await planned.replace(shop, '1', 'sync', [write('createProduct', { gaps })], at);
    await planned.replace(shop, '1', 'write-back', [write('metafieldsSet', { method: 'MUTATION' })], at);
    await planned.replace(shop, '1', 'write-back', [write('productUpdate', { method: 'MUTATION' })], at);
    const rows = await planned.ofProduct(shop, '1');
    expect(rows.map((r) => [r.source, r.kind])).toEqual([
      ['sync', 'createProduct'],
      ['write-back', 'productUpdate'],
    ]);
    expect(rows[0]?.gaps).toEqual(gaps);
    expect(rows[1]?.gaps).toEqual([]);

    await planned.clearProduct(shop, '1', 'write-back');
    expect((await planned.ofProduct(shop, '1')).map((r) => r.source)).toEqual(['write-back']);
    await planned.clearProduct(shop, '1');
    expect(await planned.ofProduct(shop, '1')).toEqual([]);
  });
});
