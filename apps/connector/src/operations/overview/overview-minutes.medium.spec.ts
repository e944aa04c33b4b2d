import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediumDatabase } from '../../../test/support/medium-database.js';
import { OverviewMinute } from './overview-minute.entity.js';
import { OverviewMinutes } from './overview-minutes.repository.js';

// The overview's per-minute series against real PostgreSQL (the connector's migrations, a schema
// of this file's own): writers at once never lose a count, the lag keeps the minute's highest,
// retention deletes old minutes.
const database = mediumDatabase('overview', [OverviewMinute], { poolSize: 4 });
const minute = Date.UTC(2027, 10, 23, 10, 7);
let dataSource: DataSource;

beforeAll(async () => {
  dataSource = await database.open();
});

afterAll(() => database.close());

describe('overview minutes', () => {
  it('adds counts from concurrent writers into one row per minute, keeps the highest lag, prunes', async () => {
    const minutes = new OverviewMinutes(dataSource.getRepository(OverviewMinute));
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => minutes.add('catalog_calls', minute + (i % 60) * 1000, 1)),
    );
    await minutes.add('catalog_calls', minute + 60_000, 2);
    await minutes.add('catalog_429', minute, 1);
    await minutes.highest('enrichment_lag', minute, 30);
    await minutes.highest('enrichment_lag', minute + 5_000, 90);
    await minutes.highest('enrichment_lag', minute + 9_000, 40);

    const calls = await minutes.since('catalog_calls', new Date(minute - 3_600_000));
    expect(calls.map((row) => [row.minute.getTime(), row.count]).sort()).toEqual([
      [minute, 20],
      [minute + 60_000, 2],
    ]);
    expect((await minutes.since('catalog_429', new Date(minute))).map((row) => row.count)).toEqual([1]);
    expect((await minutes.since('enrichment_lag', new Date(minute))).map((row) => row.count)).toEqual([90]);

    expect(await minutes.pruneBefore(new Date(minute + 60_000))).toBe(3);
    expect((await minutes.since('catalog_calls', new Date(0))).map((row) => row.count)).toEqual([2]);
  });
});
