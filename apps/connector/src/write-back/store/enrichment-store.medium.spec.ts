import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { uniqueId } from '#lib/testing';
import { mediumDatabase } from '../../../test/support/medium-database.js';
import { approved, catalogRecord } from '../../../test/support/write-back-mapping.js';
import { ENRICHMENT_ENTITIES } from '../write-back.module.js';
import { EnrichmentOutboxRow } from './enrichment-outbox.entity.js';
import { EnrichmentOutbox, type PollCommit } from './enrichment-outbox.repository.js';
import { WriteBackStateRow } from './write-back-state.entity.js';
import { WriteBackStates } from './write-back-states.repository.js';

// Real PostgreSQL, the connector's migrations, a schema of this file's own.
const database = mediumDatabase('enrich', ENRICHMENT_ENTITIES);
const { schema } = database;
const clock = new ManualClock(Date.UTC(2026, 10, 23, 10));
let dataSource: DataSource;
let outbox: EnrichmentOutbox;
let states: WriteBackStates;

beforeAll(async () => {
  dataSource = await database.open();
  outbox = new EnrichmentOutbox(dataSource.getRepository(EnrichmentOutboxRow), clock);
  states = new WriteBackStates(dataSource.getRepository(WriteBackStateRow), clock);
});

afterAll(() => database.close());

const newShop = () => `${uniqueId('shop')}.myshopify.com`;
const poll = (shop: string, over: Partial<PollCommit>): PollCommit => ({
  shop,
  pollId: uniqueId('poll'),
  checkpoints: {},
  found: [],
  watch: [],
  unwatch: [],
  ...over,
});

describe('the poll outbox against PostgreSQL', () => {
  it('stores work and checkpoint together, and gives no work for a record seen with the same hash', async () => {
    const shop = newShop();
    const first = await outbox.commit(
      poll(shop, {
        checkpoints: { 'dataEnrichment.completedAt': 1_000 },
        found: [
          { skuId: 'SKU1', productId: '9007199254740993123', contentHash: 'a' },
          { skuId: 'SKU2', productId: '9007199254740993123', contentHash: 'b' },
          { skuId: 'SKU3', productId: '42', contentHash: 'c' },
        ],
      }),
    );
    expect(first.changed.sort()).toEqual(['SKU1', 'SKU2', 'SKU3']);
    expect(first.products.sort()).toEqual(['42', '9007199254740993123']);
    expect(await outbox.checkpoints(shop)).toEqual(new Map([['dataEnrichment.completedAt', 1_000]]));
    expect((await outbox.pendingProducts(shop)).sort()).toEqual(['42', '9007199254740993123']);

    // Found again (the overlap window): one record changed, the others did not.
    const again = await outbox.commit(
      poll(shop, {
        checkpoints: { 'dataEnrichment.completedAt': 2_000 },
        found: [
          { skuId: 'SKU1', productId: '9007199254740993123', contentHash: 'a' },
          { skuId: 'SKU3', productId: '42', contentHash: 'c2' },
        ],
      }),
    );
    expect(again).toEqual({ changed: ['SKU3'], products: ['42'] });

    // A push run marks the rows it covered done; a row added meanwhile stays pending.
    const upTo = await outbox.lastPending(shop, '42');
    await outbox.add(shop, '42');
    await outbox.markDone(shop, '42', upTo as string);
    expect((await outbox.pendingProducts(shop)).sort()).toEqual(['42', '9007199254740993123']);
    await outbox.markDone(shop, '42', (await outbox.lastPending(shop, '42')) as string);
    expect(await outbox.pendingProducts(shop)).toEqual(['9007199254740993123']);

    // Done work is dropped after a while; pending work never is.
    await outbox.prune(new Date(clock.now() + 1));
    const left = await dataSource.query(
      `SELECT state, count(*)::int AS n FROM "${schema}".enrichment_outbox WHERE shop = $1 GROUP BY state`,
      [shop],
    );
    expect(left).toEqual([{ state: 'pending', n: 1 }]);
  });

  it("tells which records are unseen without storing, and keeps each product's records with its work", async () => {
    const shop = newShop();
    const found = [
      { skuId: 'P1', productId: '1', contentHash: 'a' },
      { skuId: 'V1', productId: '1', contentHash: 'b' },
      { skuId: 'P2', productId: '2', contentHash: 'c' },
    ];
    expect([...(await outbox.unseen(shop, found))].sort()).toEqual(['P1', 'P2', 'V1']);
    expect(await outbox.unseen(shop, found)).toHaveLength(3); // nothing stored
    const snapshot = (skuId: string, at: number) => ({
      at,
      attributes: ['seoTitle'],
      records: { [skuId]: catalogRecord(skuId, [approved('seoTitle', `T ${at}`)]) },
    });
    await outbox.commit(
      poll(shop, {
        found,
        snapshots: new Map([
          ['1', snapshot('P1', 1)],
          ['2', snapshot('P2', 1)],
        ]),
      }),
    );
    expect([
      ...(await outbox.unseen(shop, [...found, { skuId: 'P2', productId: '2', contentHash: 'c2' }])),
    ]).toEqual(['P2']);
    await outbox.commit(
      poll(shop, {
        found: [{ skuId: 'P2', productId: '2', contentHash: 'c2' }],
        snapshots: new Map([['2', snapshot('P2', 2)]]),
      }),
    );
    // The newest pending row's records: the newest read.
    const work = await outbox.pendingWork(shop, '2');
    expect(work?.records).toEqual(snapshot('P2', 2));
    expect(work?.id).toBe(await outbox.lastPending(shop, '2'));
    await outbox.markDone(shop, '2', work?.id as string);
    const kept = await dataSource.query(
      `SELECT count(*)::int AS n FROM "${schema}".enrichment_outbox WHERE shop = $1 AND records IS NOT NULL`,
      [shop],
    );
    expect(kept).toEqual([{ n: 1 }]); // done work drops its records; product 1's are still pending
    await outbox.add(shop, '1');
    expect((await outbox.pendingWork(shop, '1'))?.records).toBeNull(); // outside a poll: search
  });

  it('stores nothing of a poll whose transaction fails: checkpoint, hashes and work stay as they were', async () => {
    const shop = newShop();
    await outbox.commit(poll(shop, { checkpoints: { updatedAt: 5 } }));
    await expect(
      outbox.commit(
        poll(shop, {
          checkpoints: { updatedAt: 9 },
          found: [
            { skuId: 'OK', productId: '7', contentHash: 'x' },
            { skuId: 'BAD', productId: 'not-a-number', contentHash: 'y' },
          ],
        }),
      ),
    ).rejects.toThrow();
    expect(await outbox.checkpoints(shop)).toEqual(new Map([['updatedAt', 5]]));
    expect(await outbox.pendingProducts(shop)).toEqual([]);
    const again = await outbox.commit(
      poll(shop, { found: [{ skuId: 'OK', productId: '7', contentHash: 'x' }] }),
    );
    expect(again.changed).toEqual(['OK']);
  });

  it('keeps the watchlist: added once, updated, aged out, dropped', async () => {
    const shop = newShop();
    await outbox.commit(poll(shop, { watch: [{ skuId: 'W1', productId: '1', attributes: ['seoTitle'] }] }));
    clock.set(clock.now() + 60_000);
    await outbox.commit(
      poll(shop, {
        watch: [
          { skuId: 'W1', productId: '1', attributes: ['aiTags'] },
          { skuId: 'W2', productId: '2', attributes: ['material'] },
        ],
      }),
    );
    const list = await outbox.watchlist(shop);
    expect(list.map((w) => [w.skuId, w.attributes])).toEqual([
      ['W1', ['aiTags']],
      ['W2', ['material']],
    ]);
    expect(await outbox.agedOut(shop, new Date(clock.now() - 30_000))).toEqual(['W1']);
    await outbox.commit(poll(shop, { unwatch: ['W1'] }));
    expect((await outbox.watchlist(shop)).map((w) => w.skuId)).toEqual(['W2']);
  });
});

describe('push states against PostgreSQL', () => {
  it('records an intent before the write and the state after it, with the history', async () => {
    const shop = newShop();
    const pushed = {
      ownerId: 'gid://shopify/Product/1',
      attribute: 'seoTitle',
      target: 'seo.title',
      status: 'pushed' as const,
      valueHash: 'h1',
      restore: { value: 'Merchant title' },
    };
    await states.save(shop, '1', { intents: [pushed] }, 'job-1');
    expect(await states.forProduct(shop, '1')).toEqual([
      {
        ownerId: pushed.ownerId,
        attribute: 'seoTitle',
        target: 'seo.title',
        status: 'retracted',
        valueHash: null,
        intent: { ...pushed, intent: null },
      },
    ]);
    await states.save(shop, '1', {
      states: [pushed],
      history: [{ ...pushed, purpose: 'push', result: 'ok' }],
    });
    expect(await states.forProduct(shop, '1')).toEqual([pushed]);
    // A later refused write: the intent goes, the pushed state stays.
    await states.save(shop, '1', { intents: [{ ...pushed, valueHash: 'h2' }] });
    await states.save(shop, '1', {
      dropIntents: [pushed],
      history: [
        { ...pushed, valueHash: 'h2', purpose: 'push', result: 'rejected', errors: ['seo: too long'] },
      ],
    });
    expect(await states.forProduct(shop, '1')).toEqual([pushed]);
    const history = await states.history(shop, '1');
    expect(history.map((h) => [h.result, h.valueHash, h.errors])).toEqual([
      ['ok', 'h1', []],
      ['rejected', 'h2', ['seo: too long']],
    ]);
  });

  it('lists the products holding a pushed value (the drift report reads those), not intents nor retracted ones', async () => {
    const shop = newShop();
    const state = (ownerId: string, status: 'pushed' | 'retracted' | 'merchant-owned') => ({
      ownerId,
      attribute: 'seoTitle',
      target: 'seo.title',
      status,
      valueHash: 'h',
    });
    await states.save(shop, '20', { states: [state('gid://shopify/Product/20', 'pushed')] });
    await states.save(shop, '3', {
      states: [
        state('gid://shopify/Product/3', 'retracted'),
        state('gid://shopify/ProductVariant/31', 'pushed'),
      ],
    });
    await states.save(shop, '4', { states: [state('gid://shopify/Product/4', 'merchant-owned')] });
    await states.save(shop, '5', { intents: [state('gid://shopify/Product/5', 'pushed')] });
    await states.save(newShop(), '6', { states: [state('gid://shopify/Product/6', 'pushed')] });
    expect(await states.pushedProducts(shop)).toEqual(['3', '20']);
  });
});
