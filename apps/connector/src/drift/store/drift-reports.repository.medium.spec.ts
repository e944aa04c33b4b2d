import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { uniqueId } from '#lib/testing';
import { mediumDatabase } from '../../../test/support/medium-database.js';
import type { DriftFinding, DriftKind } from '../model/drift-finding.js';
import { DriftFindingRow } from './drift-finding-row.entity.js';
import { DriftReport } from './drift-report.entity.js';
import { DriftReportsRepository } from './drift-reports.repository.js';

// Drift reports on real PostgreSQL (the connector's migrations, a schema of this file's own): a
// report is stored with its findings and compared with the shop's previous one by finding key.
const database = mediumDatabase('drift', [DriftReport, DriftFindingRow]);
const clock = new ManualClock(Date.UTC(2026, 10, 26, 12));
let dataSource: DataSource;
let repo: DriftReportsRepository;

function finding(kind: DriftKind, id: string): DriftFinding {
  return {
    kind,
    key: `${kind}:${id}`,
    productId: id,
    skuId: null,
    supplierSku: null,
    field: null,
    expected: null,
    found: null,
    repair: 'resync',
  };
}

beforeAll(async () => {
  dataSource = await database.open();
  repo = new DriftReportsRepository(
    dataSource.getRepository(DriftReport),
    dataSource.getRepository(DriftFindingRow),
    clock,
  );
});

afterAll(() => database.close());

describe('drift reports against PostgreSQL', () => {
  it('compares each report with the previous one of its shop: new, resolved, still open', async () => {
    const shop = `${uniqueId('drift')}.myshopify.com`;
    const first = await repo.record(shop, [finding('orphan', '1'), finding('missed-webhook', '2')], {
      catalogSearches: 3,
      catalogRecords: 1_000,
    });
    expect([first.new, first.resolved, first.stillOpen]).toEqual([2, 0, 0]);
    expect(first.report.previousId).toBeNull();
    expect(first.report.counts).toMatchObject({ orphan: 1, 'missed-webhook': 1, duplicate: 0 });

    await clock.advance(60_000);
    const second = await repo.record(shop, [finding('orphan', '1'), finding('duplicate', '3')], {
      catalogSearches: 3,
      catalogRecords: 1_000,
    });
    expect([second.new, second.resolved, second.stillOpen]).toEqual([1, 1, 1]);
    expect(second.report.previousId).toBe(first.report.id);
    expect(second.report.resolved).toEqual(['missed-webhook:2']);
    const rows = await repo.findingsOf(second.report.id);
    expect(rows.map((r) => [r.key, r.status])).toEqual([
      ['orphan:1', 'still-open'],
      ['duplicate:3', 'new'],
    ]);
    expect((await repo.latest(shop))?.id).toBe(second.report.id);
  });

  it("selects an operator's findings by id or by kind, and records their repairs", async () => {
    const shop = `${uniqueId('drift')}.myshopify.com`;
    const { report } = await repo.record(
      shop,
      [finding('orphan', '1'), finding('orphan', '2'), finding('record-gone', '3')],
      { catalogSearches: 1, catalogRecords: 3 },
    );
    const all = await repo.findingsOf(report.id);
    expect((await repo.findingsOf(report.id, { kind: 'orphan' })).map((r) => r.key)).toEqual([
      'orphan:1',
      'orphan:2',
    ]);
    expect((await repo.findingsOf(report.id, { ids: [all[2].id, 'nonsense'] })).map((r) => r.key)).toEqual([
      'record-gone:3',
    ]);
    await repo.markRepaired(all[0].id, 'deleted');
    const [repaired] = await repo.findingsOf(report.id, { ids: [all[0].id] });
    expect(repaired.repairOutcome).toBe('deleted');
    expect(repaired.repairedAt?.getTime()).toBe(clock.now());
  });

  it('prunes reports older than the retention cut-off with their findings, and purges a shop', async () => {
    const shop = `${uniqueId('drift')}.myshopify.com`;
    const old = await repo.record(shop, [finding('orphan', '1')], { catalogSearches: 1, catalogRecords: 1 });
    await clock.advance(86_400_000);
    const kept = await repo.record(shop, [], { catalogSearches: 1, catalogRecords: 1 });
    expect(await repo.pruneBefore(new Date(clock.now() - 1000))).toBeGreaterThanOrEqual(1);
    expect(await repo.report(old.report.id)).toBeNull();
    expect(await repo.findingsOf(old.report.id)).toEqual([]);
    expect((await repo.report(kept.report.id))?.id).toBe(kept.report.id);
    expect(await repo.purgeShop(shop)).toBe(1);
    expect(await repo.latest(shop)).toBeNull();
  });

  it("counts each shop's open findings of its latest report, its reports and its repairs; a product's repairs", async () => {
    const shop = `${uniqueId('drift')}.myshopify.com`;
    await repo.record(shop, [finding('orphan', '9')], { catalogSearches: 1, catalogRecords: 1 });
    await clock.advance(60_000);
    const latest = await repo.record(
      shop,
      [finding('orphan', '1'), finding('orphan', '2'), finding('duplicate', '3')],
      {
        catalogSearches: 1,
        catalogRecords: 3,
      },
    );
    const [one] = await repo.findingsOf(latest.report.id, { kind: 'orphan' });
    await repo.markRepaired(one?.id ?? '', 'deleted');
    const counts = await repo.metricCounts();
    const mine = <T extends { shop: string }>(rows: T[]) => rows.filter((r) => r.shop === shop);
    expect(mine(counts.open).sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { shop, kind: 'duplicate', count: 1 },
      { shop, kind: 'orphan', count: 1 },
    ]);
    expect(mine(counts.reports)).toEqual([{ shop, count: 2 }]);
    expect(mine(counts.repairs)).toEqual([{ shop, kind: 'orphan', outcome: 'deleted', count: 1 }]);
    const repaired = await repo.repairsOfProduct(shop, one?.finding.productId ?? '', 10);
    expect(repaired.map((r) => [r.id, r.repairOutcome])).toEqual([[one?.id, 'deleted']]);
    expect(await repo.repairsOfProduct(shop, '2', 10)).toEqual([]);
  });
});
