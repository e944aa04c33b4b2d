import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './support/stack-process.js';

const run = promisify(execFile);

/** One benchmark's JSON line, as `npm run bench` prints it. */
type BenchLine = Record<string, unknown> & { bench: string; needs?: string; error?: string };

// Every benchmark of bench/ in its smoke mode (tiny sizes, a few seconds each, two at a time), so
// they cannot rot: each must print its JSON line with sane values. Figures are never asserted against
// targets here (no timed assertions); bench/README.md holds real-size runs.
// `npm run bench` is `npm run build` + this compile + this run: dist/apps and dist/libs are
// already built by this project's global setup, and rebuilding them here could change files
// under the feet of other stack tests, so only bench/ is compiled (into dist/bench).
describe('benchmarks, smoke mode', () => {
  const lines = new Map<string, BenchLine>();

  beforeAll(async () => {
    const swc = join(repoRoot, 'node_modules/.bin/swc');
    await run(swc, ['bench', '-d', 'dist', '--only', '**/*.ts', '--ignore', '**/*.bench.ts', '--quiet'], {
      cwd: repoRoot,
    });
    const { stdout } = await run(process.execPath, ['dist/bench/run.js', 'all', '--smoke', '--jobs=2'], {
      cwd: repoRoot,
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout?: string; message: string }) => {
      // A failed benchmark exits 1: its JSON line says which, and the tests below show it.
      if (error.stdout === undefined) throw error;
      return { stdout: error.stdout };
    });
    for (const text of stdout.split('\n').filter((l) => l.startsWith('{"bench"'))) {
      const line = JSON.parse(text) as BenchLine;
      lines.set(line.bench, line);
    }
  }, 300_000);

  const line = (name: string): BenchLine => {
    const found = lines.get(name);
    expect(found, `no JSON line for ${name}`).toBeDefined();
    expect(found?.error, `${name} failed`).toBeUndefined();
    expect(found?.smoke).toBe(true);
    return found as BenchLine;
  };
  const finitePositive = (value: unknown) => {
    expect(typeof value).toBe('number');
    expect(Number.isFinite(value)).toBe(true);
    expect(value as number).toBeGreaterThan(0);
  };

  it('ingest: every accepted delivery is in the inbox; latencies and ratios are numbers', () => {
    const { connector, naive, ratio } = line('ingest') as unknown as Record<string, Record<string, unknown>>;
    finitePositive(connector?.accepted);
    expect(connector?.inboxed).toBe(connector?.accepted);
    expect(connector?.allInInbox).toBe(true);
    for (const figures of [connector, naive])
      for (const key of ['p50Ms', 'p99Ms', 'maxMs']) finitePositive(figures?.[key]);
    finitePositive(naive?.accepted);
    finitePositive(ratio?.p99);
  });

  it('storm: both systems reached every final state; calls over needed is finite', () => {
    const { connector, naive } = line('storm') as unknown as Record<string, Record<string, unknown>>;
    for (const figures of [connector, naive]) {
      finitePositive(figures?.calls);
      finitePositive(figures?.needed);
      finitePositive(figures?.callRatio);
      expect(figures?.stale).toBe(0);
      finitePositive(figures?.finalStateMs);
    }
  });

  it('search: p50 and p95 of every kind of query', () => {
    const { results } = line('search') as unknown as { results: Array<Record<string, number>> };
    expect(results.length).toBeGreaterThanOrEqual(6);
    for (const result of results) {
      finitePositive(result.p50Ms);
      expect(result.p95Ms).toBeGreaterThanOrEqual(result.p50Ms as number);
    }
  });

  for (const name of ['initial-sync', 'memory']) {
    it(`${name}: every record created, calls at least the lower bound, peak RSS measured`, () => {
      const run = line(name) as unknown as Record<string, Record<string, number>> & {
        lowerBoundCalls: number;
      };
      finitePositive(run.lowerBoundCalls);
      for (const figures of [run.connector, run.naive]) {
        expect(figures?.records).toBe(run.lowerBoundCalls);
        expect(figures?.calls).toBeGreaterThanOrEqual(run.lowerBoundCalls);
        finitePositive(figures?.timeRatio);
        finitePositive(figures?.peakRssMb);
        expect(figures?.throttled).toBeGreaterThanOrEqual(0);
      }
    });
  }

  it('media: every distinct image uploaded once, calls per image measured', () => {
    const media = line('media');
    expect(media.needs).toBeUndefined();
    const connector = media.connector as Record<string, number>;
    expect(connector.uploadsPerDistinctImage).toBe(1);
    finitePositive(connector.callsPerImage);
  });

  it('catch-up: every product written once, searches and Shopify cost measured', () => {
    const catchUp = line('catch-up');
    expect(catchUp.needs).toBeUndefined();
    const products = catchUp.products as number;
    finitePositive(products);
    const connector = catchUp.connector as Record<string, number | boolean>;
    expect(connector.productsWritten).toBe(products);
    expect(connector.allWritten).toBe(true);
    expect(connector.duplicates).toBe(0);
    expect(connector.openFailures).toBe(0);
    expect(connector.searchCalls as number).toBeGreaterThanOrEqual(1);
    finitePositive(connector.pollSearchCalls);
    finitePositive(connector.shopifyCostPoints);
    finitePositive(connector.costRatio);
  });

  it('drift: one report finds what was planted within the searches one scan of the account costs', () => {
    const drift = line('drift');
    expect(drift.needs).toBeUndefined();
    const records = drift.records as number;
    finitePositive(records);
    const connector = drift.connector as Record<string, unknown>;
    // 21 for 10,000 records: one keyset page of 500 each, and the empty one that ends the scan.
    expect(connector.catalogSearches as number).toBeLessThanOrEqual(Math.floor(records / 500) + 1);
    expect(connector.catalogSearches).toBe(connector.reportedCatalogSearches);
    expect(connector.allFound).toBe(true);
    for (const key of ['catalogSearches', 'shopifyRequests', 'shopifyCostPoints', 'findings', 'elapsedMs'])
      finitePositive(connector[key]);
    expect(connector.shopifyThrottled).toBe(0);
  });

  it('freshness: every edit reached the catalog and every approval Shopify; p50 <= p95 <= max per part', () => {
    const freshness = line('freshness');
    expect(freshness.needs).toBeUndefined();
    const naive = freshness.naive as Record<string, Record<string, unknown>>;
    const parts = {
      idle: freshness.idle,
      duringResync: freshness.duringResync,
      approval: freshness.approval,
      approvalReviewMovesUpdatedAt: freshness.approvalReviewMovesUpdatedAt,
      naiveIdle: naive?.idle,
    } as Record<string, Record<string, unknown> | undefined>;
    for (const [name, part] of Object.entries(parts)) {
      expect(part, name).toBeDefined();
      finitePositive(part?.count);
      expect(part?.unseen, `${name}: never seen`).toBe(0);
      finitePositive(part?.p50Ms);
      expect(part?.p95Ms as number).toBeGreaterThanOrEqual(part?.p50Ms as number);
      expect(part?.maxMs as number).toBeGreaterThanOrEqual(part?.p95Ms as number);
      expect(typeof part?.targetMet, name).toBe('boolean');
    }
    for (const name of ['approval', 'approvalReviewMovesUpdatedAt'])
      expect(parts[name]?.valuesMatch, `${name}: Shopify holds the approved value`).toBe(parts[name]?.count);
  });

  it("tenants: every healthy shop's edit reached its account, the big resync finished, no healthy shop failed", () => {
    const tenants = line('tenants') as unknown as Record<string, Record<string, unknown>> & {
      bigShopProducts: number;
      peakRssMb: number;
    };
    finitePositive(tenants.boot?.readyMs);
    finitePositive(tenants.peakRssMb);
    const naive = tenants.naive as Record<string, Record<string, unknown>>;
    const parts = {
      ...(tenants.edits as Record<string, Record<string, number>>),
      ...Object.fromEntries(
        Object.entries(naive.edits as Record<string, Record<string, number>>).map(([k, v]) => [
          `naive ${k}`,
          v,
        ]),
      ),
    };
    for (const [name, part] of Object.entries(parts)) {
      finitePositive(part.count);
      expect(part.unseen, `${name}: never seen`).toBe(0);
      expect(part.p95Ms).toBeGreaterThanOrEqual(part.p50Ms as number);
      expect(part.maxMs).toBeGreaterThanOrEqual(part.p95Ms as number);
    }
    const big = tenants.bigShop as Record<string, unknown>;
    expect(big.run).toMatchObject({ state: 'done', listed: tenants.bigShopProducts, failed: 0 });
    finitePositive(big.budgetUse);
    finitePositive(tenants.databaseConnections?.peakPostgres);
    const failures = tenants.failures as Record<string, number>;
    expect(failures.healthyShops).toBe(0);
    expect(naive.failedDeliveries?.healthyShops).toBe(0);
    finitePositive(naive.peakRssMb);
    expect((tenants.overview as Record<string, Record<string, unknown>>).uninstalledShop?.authState).toBe(
      'uninstalled',
    );
  });

  for (const name of ['catalog-search.bench', 'catalog-bulk-load.bench']) {
    it(`${name}: the vitest benchmark ran and reported its cases`, () => {
      const { results } = line(name) as unknown as { results: Array<Record<string, number>> };
      expect(results.length).toBeGreaterThan(0);
      for (const result of results) finitePositive(result.opsPerSecond);
    });
  }
});
