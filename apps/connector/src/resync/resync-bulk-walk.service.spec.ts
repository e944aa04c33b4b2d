import { describe, expect, it } from 'vitest';
import type { BulkProductReader } from '../clients/shopify/bulk-product.reader.js';
import type { ShopBulkLock } from '../clients/shopify/shop-bulk-lock.service.js';
import type { SyncEnqueuer } from '../intake/sync-enqueuer.service.js';
import type { ResyncSnapshots } from '../product-sync/resync-snapshots.repository.js';
import { ResyncBulkWalk } from './resync-bulk-walk.service.js';
import type { ResyncRun } from './resync-run.entity.js';
import type { ResyncRunsRepository } from './resync-runs.repository.js';

/** A walk whose bulk reads wait until `finish` is called; the runs always `running`. */
function world() {
  const reads: string[] = [];
  let finish: () => void = () => undefined;
  const reader = {
    read: async (shop: string) => {
      reads.push(shop);
      await new Promise<void>((resolve) => {
        finish = resolve;
      });
      return { ok: true, attempts: [] };
    },
  };
  const runs = {
    readWith: async () => undefined,
    advance: async () => true,
  };
  const lock = { withLock: <T>(_shop: string, work: () => Promise<T>) => work() };
  const walk = new ResyncBulkWalk(
    runs as unknown as ResyncRunsRepository,
    {} as ResyncSnapshots,
    {} as SyncEnqueuer,
    reader as unknown as BulkProductReader,
    lock as unknown as ShopBulkLock,
  );
  return { walk, reads, finish: () => finish() };
}

const run = (id: string, shop: string) => ({ id, shop, cursor: null }) as unknown as ResyncRun;

describe('ResyncBulkWalk', () => {
  it("reads one shop at a time per process: another shop's read is busy until it ends", async () => {
    const w = world();
    const first = w.walk.walk(run('1', 'a.myshopify.com'));
    await new Promise((resolve) => setImmediate(resolve));
    // The page worker beside it is left to the other shops' pages: a second read waits its turn.
    expect(await w.walk.walk(run('2', 'c.myshopify.com'))).toBe('busy');
    w.finish();
    expect(await first).toBe('last');
    const second = w.walk.walk(run('2', 'c.myshopify.com'));
    await new Promise((resolve) => setImmediate(resolve));
    w.finish();
    expect(await second).toBe('last');
    expect(w.reads).toEqual(['a.myshopify.com', 'c.myshopify.com']);
  });
});
