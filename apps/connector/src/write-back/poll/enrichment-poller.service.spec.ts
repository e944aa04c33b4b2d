import { describe, expect, it } from 'vitest';
import { type CatalogClient, CatalogClientError, ClientErrorCode } from '#lib/catalog-client';
import type { ProductRecord, ProductSearchRequest } from '#lib/catalog-contract';
import { ManualClock } from '#lib/clock';
import { InMemoryCatalogSearch } from '../../../test/support/catalog-search-stub.js';
import { approved, catalogRecord } from '../../../test/support/write-back-mapping.js';
import type { CatalogClients } from '../../clients/catalog/catalog-clients.service.js';
import type { CatalogGate, PauseState } from '../../clients/catalog/catalog-gate.service.js';
import type { ShopMappings } from '../../mapping/shop-mappings.service.js';
import type { EnrichmentSettings } from '../../platform/config/settings.js';
import type { SkuMapRepository } from '../../product-sync/sku-map/sku-map.repository.js';
import type { Shops } from '../../shops/shops.js';
import type { PushEnqueuer } from '../push/push-enqueuer.service.js';
import type { ChangedProduct, PushHistory } from '../push/push-history.service.js';
import type { EnrichmentOutbox, FoundRecord, PollCommit } from '../store/enrichment-outbox.repository.js';
import { EnrichmentPoller } from './enrichment-poller.service.js';
import type { ShopPollLock } from './shop-poll-lock.service.js';

const SHOP = 'demo.myshopify.com';
const T0 = Date.UTC(2026, 10, 1);

function record(i: number, updatedAt: number): ProductRecord {
  const r = catalogRecord(`SK${String(i).padStart(8, '0')}`, [approved('seoTitle', `Title ${i}`)]);
  r.updatedAt = updatedAt;
  return r;
}

/**
 * The poller over an in-memory catalog and stores: every record mapped to its own product, the
 * checkpoints kept between polls as the outbox would, each search's priority noted.
 */
function pollerOver(
  catalog: InMemoryCatalogSearch,
  settings: Partial<EnrichmentSettings>,
  watched: readonly string[] = [],
  /** Every record found counts as changed, and `idle` says which products get no push work. */
  changes?: { idle: (products: readonly ChangedProduct[]) => Set<string> },
  /** Why the shop's catalog work waits now (`CatalogGate.pauseState`); not paused by default. */
  pause: () => PauseState = () => ({ paused: false, by: null, reason: null, since: null }),
  /** The shops served (one, `SHOP`, by default) and the lock each shop's poll runs under. */
  over: { shops?: readonly string[]; lock?: ShopPollLock } = {},
) {
  const commits: PollCommit[] = [];
  const snapshotsAskedFor: string[] = [];
  const clock = new ManualClock(T0 + 1_000_000);
  const checkpoints = new Map<string, number | null>();
  const priorities: Array<string | undefined> = [];
  const searches: ProductSearchRequest[] = [];
  const mapped = () => [...catalog.records.keys()].sort();
  const outbox = {
    checkpoints: async () => new Map(checkpoints),
    agedOut: async () => [],
    watchlist: async () => watched.map((skuId) => ({ skuId })),
    unseen: async (_: string, found: readonly FoundRecord[]) =>
      new Set(changes ? found.map((f) => f.skuId) : []),
    commit: async (poll: PollCommit) => {
      commits.push(poll);
      for (const [field, value] of Object.entries(poll.checkpoints)) checkpoints.set(field, value);
      return { changed: [], products: [] };
    },
    pendingProducts: async () => [],
  } as unknown as EnrichmentOutbox;
  const map = {
    productsOfSkuIds: async (_: string, skuIds: readonly string[]) =>
      new Map(skuIds.map((s) => [s, `p-${s}`])),
    skuIdsOfProducts: async (_: string, products: readonly string[]) => {
      snapshotsAskedFor.push(...products);
      return new Map(products.map((p) => [p, [p.slice('p-'.length)]]));
    },
    liveSkuIdsAfter: async (_: string, after: string | null, limit: number) =>
      mapped()
        .filter((s) => after === null || s > after)
        .slice(0, limit),
  } as unknown as SkuMapRepository;
  const client = {
    searchProducts: (body: ProductSearchRequest, call?: { priority?: string }) => {
      priorities.push(call?.priority);
      searches.push(body);
      return catalog.search(body);
    },
  } as unknown as CatalogClient;
  const poller = new EnrichmentPoller(
    outbox,
    map,
    { mapping: () => ({ writeBack: [{ attribute: 'seoTitle' }] }) } as unknown as ShopMappings,
    { forShop: () => ({ client }) } as unknown as CatalogClients,
    over.lock ??
      ({ withShop: (_: string, work: () => Promise<unknown>) => work() } as unknown as ShopPollLock),
    { enqueue: async () => undefined, enqueueMany: async () => undefined } as unknown as PushEnqueuer,
    clock,
    {
      overlapMs: 300_000,
      maxCallsPerPoll: 40,
      watchlistIntervalMs: 600_000,
      watchlistMaxAgeMs: 86_400_000,
      rewalkIntervalMs: 3_600_000,
      ...settings,
    } as EnrichmentSettings,
    { all: (over.shops ?? [SHOP]).map((domain) => ({ domain })) } as unknown as Shops,
    {
      idle: async (_: string, products: readonly ChangedProduct[]) => changes?.idle(products) ?? new Set(),
    } as unknown as PushHistory,
    { pauseState: pause } as unknown as CatalogGate,
  );
  return { poller, checkpoints, priorities, searches, clock, commits, snapshotsAskedFor };
}

describe('the enrichment poller', () => {
  it('polls every shop, two at a time, so a poll of many shops is not as long as all of them in a row', async () => {
    const shops = Array.from({ length: 10 }, (_, i) => `s${i}.myshopify.com`);
    let running = 0;
    let most = 0;
    const polled: string[] = [];
    const lock = {
      withShop: async (shop: string, work: () => Promise<unknown>) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        try {
          return await work();
        } finally {
          polled.push(shop);
          running -= 1;
        }
      },
    } as unknown as ShopPollLock;
    const { poller } = pollerOver(new InMemoryCatalogSearch(), {}, [], undefined, undefined, { shops, lock });
    const counts = await poller.poll('many');
    expect(most).toBe(2);
    expect(polled.sort()).toEqual([...shops].sort());
    expect(Object.keys(counts.shops ?? {}).sort()).toEqual([...shops].sort());
  });

  it('keeps its checkpoint moving when more records changed inside the overlap than a poll may read', async () => {
    const catalog = new InMemoryCatalogSearch();
    for (let i = 0; i < 10; i++) catalog.put(record(i, T0 + i));
    const { poller, checkpoints } = pollerOver(catalog, { maxCallsPerPoll: 1, rewalkIntervalMs: 1e12 });
    await poller.poll('first');
    // A bulk approval: 1,600 records move updatedAt inside the overlap window; 500 per poll.
    for (let i = 10; i < 1_610; i++) catalog.put(record(i, T0 + 100_000 + i));
    const seen: Array<number | null | undefined> = [];
    for (let poll = 0; poll < 10; poll++) {
      await poller.poll(`poll-${poll}`);
      seen.push(checkpoints.get('updatedAt'));
    }
    expect(checkpoints.get('updatedAt')).toBe(T0 + 100_000 + 1_609);
    expect(seen.indexOf(T0 + 100_000 + 1_609)).toBeLessThanOrEqual(4);
  });

  it('gives push work only to the changed products PushHistory does not call idle, and reads snapshots for those alone', async () => {
    const catalog = new InMemoryCatalogSearch();
    catalog.put(record(0, T0));
    // Two records a resync just created: no write-back value at all.
    for (const i of [1, 2]) catalog.put({ ...record(i, T0 + i), attributes: [] });
    const asked: ChangedProduct[] = [];
    const { poller, commits, snapshotsAskedFor } = pollerOver(catalog, {}, [], {
      idle: (products) => {
        asked.push(...products);
        return new Set(
          products.filter((p) => p.records.every((r) => r.attributes.length === 0)).map((p) => p.productId),
        );
      },
    });
    await poller.poll('first');
    expect(asked.map((p) => [p.productId, p.records.map((r) => r.skuId)])).toEqual([
      ['p-SK00000000', ['SK00000000']],
      ['p-SK00000001', ['SK00000001']],
      ['p-SK00000002', ['SK00000002']],
    ]);
    expect([...(commits[0]?.idle ?? [])].sort()).toEqual(['p-SK00000001', 'p-SK00000002']);
    expect(snapshotsAskedFor).toEqual(['p-SK00000000']);
    expect([...(commits[0]?.snapshots?.keys() ?? [])]).toEqual(['p-SK00000000']);
    // Every found record is still committed, so its hash is marked seen.
    expect(commits[0]?.found.map((f) => f.skuId).sort()).toEqual(['SK00000000', 'SK00000001', 'SK00000002']);
  });

  it('reads every mapped record again on its interval, at bulk priority, 500 per search', async () => {
    const catalog = new InMemoryCatalogSearch();
    for (let i = 0; i < 1_200; i++) catalog.put(record(i, T0 + i));
    const { poller, priorities, clock } = pollerOver(catalog, { rewalkIntervalMs: 3_600_000 });
    await poller.poll('first');
    // The first poll read every record: the re-walk is due an interval later.
    priorities.length = 0;
    await poller.poll('second');
    expect(priorities.filter((p) => p === 'bulk')).toHaveLength(0);
    await clock.advance(3_600_000);
    await poller.poll('third');
    expect(priorities.filter((p) => p === 'bulk')).toHaveLength(3);
    // The walks are not bulk: only the re-walk is.
    expect(priorities.filter((p) => p !== 'bulk').length).toBeGreaterThan(0);
    priorities.length = 0;
    await clock.advance(60_000);
    await poller.poll('fourth');
    expect(priorities.filter((p) => p === 'bulk')).toHaveLength(0);
  });

  it('re-checks the watchlist at every poll by default, a bounded turn at a time, wrapping round', async () => {
    const watched = Array.from({ length: 1_200 }, (_, i) => `W${String(i).padStart(5, '0')}`);
    const { poller, searches, clock } = pollerOver(
      new InMemoryCatalogSearch(),
      { watchlistIntervalMs: 0, maxCallsPerPoll: 1 },
      watched,
    );
    /** The skuIds each watchlist search of a poll asked for (the `$in` searches). */
    const rechecked = async (pollId: string) => {
      searches.length = 0;
      await poller.poll(pollId);
      await clock.advance(60_000);
      return searches.flatMap((b) => {
        const ids = (b.filter as { skuId?: { $in?: string[] } } | undefined)?.skuId?.$in;
        return ids ? [ids] : [];
      });
    };
    // One search of 500 per poll (the poll's limit), each poll where the last one stopped.
    expect(await rechecked('1')).toEqual([watched.slice(0, 500)]);
    expect(await rechecked('2')).toEqual([watched.slice(500, 1_000)]);
    expect(await rechecked('3')).toEqual([[...watched.slice(1_000), ...watched.slice(0, 300)]]);
    expect(await rechecked('4')).toEqual([watched.slice(300, 800)]);
  });
  it('commits each page as it reads it, and the checkpoints after the last page', async () => {
    const catalog = new InMemoryCatalogSearch();
    for (let i = 0; i < 1_200; i++) catalog.put(record(i, T0 + i));
    const { poller, commits, checkpoints } = pollerOver(catalog, {}, [], { idle: () => new Set() });
    await poller.poll('first');
    // Three pages of 500, 500 and 200, each with its work and no checkpoint; then the checkpoints.
    expect(commits.map((c) => c.found.length)).toEqual([500, 500, 200, 0]);
    expect(commits.slice(0, 3).every((c) => Object.keys(c.checkpoints).length === 0)).toBe(true);
    expect(commits.slice(0, 3).map((c) => c.snapshots?.size)).toEqual([500, 500, 200]);
    expect(commits[3]?.checkpoints.updatedAt).toBe(T0 + 1_199);
    expect(checkpoints.get('updatedAt')).toBe(T0 + 1_199);
  });

  it('keeps its checkpoints when the catalog fails half-way, the pages read so far committed', async () => {
    const catalog = new InMemoryCatalogSearch();
    for (let i = 0; i < 1_200; i++) catalog.put(record(i, T0 + i));
    const { poller, commits, checkpoints, searches } = pollerOver(catalog, {}, [], { idle: () => new Set() });
    const search = catalog.search.bind(catalog);
    catalog.search = async (body) => {
      if (searches.length === 3) throw new Error('catalog down');
      return search(body);
    };
    await expect(poller.poll('first')).rejects.toThrow(/catalog down/);
    expect(commits.map((c) => c.found.length)).toEqual([500, 500]);
    expect(checkpoints.size).toBe(0);
  });

  it('holds a shop whose catalog breaker is open: no search, its poll waiting with the cause, not failed', async () => {
    const catalog = new InMemoryCatalogSearch();
    catalog.put(record(0, T0));
    const reason = 'catalog unavailable (breaker open)';
    const { poller, searches, commits } = pollerOver(catalog, {}, [], undefined, () => ({
      paused: true,
      by: 'breaker',
      reason,
      since: null,
    }));
    await expect(poller.poll('held')).resolves.toMatchObject({ shops: {}, held: { [SHOP]: reason } });
    expect(searches).toEqual([]);
    expect(commits).toEqual([]);
  });

  it('holds a shop whose breaker opens half-way (its pages so far committed, its checkpoints kept)', async () => {
    const catalog = new InMemoryCatalogSearch();
    for (let i = 0; i < 1_200; i++) catalog.put(record(i, T0 + i));
    let open = false;
    const { poller, commits, checkpoints, searches } = pollerOver(
      catalog,
      {},
      [],
      { idle: () => new Set() },
      () =>
        open
          ? { paused: true, by: 'breaker', reason: 'catalog unavailable (breaker open)', since: null }
          : { paused: false, by: null, reason: null, since: null },
    );
    const search = catalog.search.bind(catalog);
    catalog.search = async (body) => {
      if (searches.length === 3) {
        open = true;
        throw new CatalogClientError({
          message: 'Catalog POST /v1/products/search not sent: circuit open (failures)',
          errorCode: null,
          code: ClientErrorCode.CIRCUIT_OPEN,
          status: null,
          details: {},
          retryable: false,
          method: 'POST',
          path: '/v1/products/search',
          attempts: 0,
        });
      }
      return search(body);
    };
    await expect(poller.poll('first')).resolves.toMatchObject({
      shops: {},
      held: { [SHOP]: 'catalog unavailable (breaker open)' },
    });
    expect(commits.map((c) => c.found.length)).toEqual([500, 500]);
    expect(checkpoints.size).toBe(0);
  });

  it('still polls a shop an operator paused (its syncs wait, not the write-back)', async () => {
    const catalog = new InMemoryCatalogSearch();
    catalog.put(record(0, T0));
    const { poller, searches } = pollerOver(catalog, {}, [], undefined, () => ({
      paused: true,
      by: 'operator',
      reason: 'maintenance',
      since: new Date(T0).toISOString(),
    }));
    const counts = await poller.poll('operator');
    expect(counts.held).toBeUndefined();
    expect(Object.keys(counts.shops ?? {})).toEqual([SHOP]);
    expect(searches.length).toBeGreaterThan(0);
  });
});
