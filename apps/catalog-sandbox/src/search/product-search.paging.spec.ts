import { describe, expect, it } from 'vitest';
import type { PaginationResponse } from '#lib/catalog-contract';
import { addRecord, newSearchAccount } from '../../test/search-account.js';
import type { Account } from '../accounts/account.js';
import { ProductView } from '../products/product-view.js';
import { parsePagination } from './pagination.js';
import { compileProductMatcher } from './product-filter.matcher.js';
import { parseProductFilter } from './product-filter.parser.js';
import { searchProducts } from './product-search.service.js';
import { DEFAULT_PRODUCT_SORT, PRODUCT_SORT_FIELDS, productComparator, sameSortKey } from './product-sort.js';
import { parseSort } from './search-sort.js';
import { TieOrder } from './tie-order.js';

const sku = (i: number) => `SK${String(i).padStart(8, '0')}`;

/** `count` records created one second apart from t = 1,000 (no ties). */
function timeline(count: number, account = newSearchAccount()): Account {
  for (let i = 0; i < count; i++) addRecord(account, sku(i), 1_000 + i * 1_000);
  return account;
}

function run(account: Account, body: Record<string, unknown>) {
  const { response, plan } = searchProducts(account, body);
  return { skus: response.products.map((p) => p.skuId), pagination: response.pagination, plan };
}

/**
 * What a search must answer, computed the plain way: test every record, sort every match,
 * shuffle every run of ties (with a TieOrder of its own, drawn once per request as the
 * account's is), then slice the page.
 */
function reference(account: Account, ties: TieOrder | undefined, body: Record<string, unknown>) {
  const sort = parseSort(body.sort, PRODUCT_SORT_FIELDS) ?? DEFAULT_PRODUCT_SORT;
  const page = parsePagination(body.pagination, { defaultLimit: 20, maxLimit: 500 });
  const matcher = compileProductMatcher(parseProductFilter(body.filter), new ProductView(account));
  const matches = [...account.products.all()].filter(matcher).sort(productComparator(sort));
  ties?.shuffleTies(matches, sameSortKey(sort));
  const skus = matches.slice(page.offset, page.offset + page.limit).map((p) => p.skuId);
  const pagination: PaginationResponse = {
    limit: page.limit,
    offset: page.offset,
    total: matches.length,
    hasMore: page.offset + skus.length < matches.length,
  };
  return { skus, pagination };
}

describe('searchProducts: createdAt ranges counted and paged by index position', () => {
  it('reads only the page of a range, whatever its size, with the exact total', () => {
    const account = timeline(10_000);
    const body = { filter: { createdAt: { $gte: 5_001_000 } }, pagination: { offset: 0, limit: 100 } };
    const first = run(account, body);
    expect(first.plan).toEqual({ index: 'createdAt', examined: 100 });
    expect(first.pagination).toEqual({ limit: 100, offset: 0, total: 5_000, hasMore: true });
    expect(first.skus[0]).toBe(sku(5_000));
    expect(first.skus[99]).toBe(sku(5_099));
    const later = run(account, { ...body, pagination: { offset: 4_950, limit: 100 } });
    expect(later.plan.examined).toBe(50);
    expect(later.skus).toEqual(Array.from({ length: 50 }, (_, i) => sku(9_950 + i)));
    expect(later.pagination).toEqual({ limit: 100, offset: 4_950, total: 5_000, hasMore: false });
  });

  it('answers an empty range, and bounds that cross, with total 0', () => {
    const account = timeline(100);
    for (const createdAt of [
      { $gt: 100_000 },
      { $lt: 1_000 },
      { $gte: 50_000, $lte: 40_000 },
      { $eq: 1_500 },
    ]) {
      const found = run(account, { filter: { createdAt } });
      expect(found.skus, JSON.stringify(createdAt)).toEqual([]);
      expect(found.pagination).toEqual({ limit: 20, offset: 0, total: 0, hasMore: false });
    }
  });

  it('pages a range at the start and at the end of the index, and past its end', () => {
    const account = timeline(100);
    expect(run(account, { filter: { createdAt: { $lt: 4_000 } } })).toMatchObject({
      skus: [sku(0), sku(1), sku(2)],
      pagination: { total: 3, hasMore: false },
    });
    expect(run(account, { filter: { createdAt: { $gte: 100_000 } } }).skus).toEqual([sku(99)]);
    const past = run(account, {
      filter: { createdAt: { $gte: 91_000 } },
      pagination: { offset: 10, limit: 5 },
    });
    expect(past).toMatchObject({ skus: [], pagination: { offset: 10, total: 10, hasMore: false } });
    expect(past.plan.examined).toBe(0);
    const none = run(account, { pagination: { offset: 0, limit: 0 } });
    expect(none).toMatchObject({ skus: [], pagination: { limit: 0, total: 100, hasMore: true } });
  });

  it('takes the tightest bound of each side, exactly (fractional operands too)', () => {
    const account = timeline(100);
    const found = run(account, {
      filter: { createdAt: { $gte: 10_000, $gt: 10_000, $lt: 20_000.5, $lte: 30_000 } },
      pagination: { limit: 500 },
    });
    expect(found.skus[0]).toBe(sku(10));
    expect(found.skus.at(-1)).toBe(sku(19));
    expect(found.pagination.total).toBe(10);
  });

  it('counts a range minus skuId and supplierSku exclusions by index (the keyset scan)', () => {
    const account = timeline(1_000);
    const seen = [sku(500), sku(501), sku(502), 'unknown', sku(3)];
    const found = run(account, {
      filter: {
        createdAt: { $gte: 501_000 },
        skuId: { $nin: seen },
        supplierSku: { $ne: `sup-${sku(600)}` },
      },
      pagination: { offset: 0, limit: 3 },
    });
    expect(found.skus).toEqual([sku(503), sku(504), sku(505)]);
    expect(found.pagination).toEqual({ limit: 3, offset: 0, total: 496, hasMore: true });
    expect(found.plan.examined).toBe(3);
    const desc = run(account, {
      filter: { createdAt: { $gte: 501_000 }, skuId: { $nin: [sku(999), sku(997)] } },
      sort: { field: 'createdAt', order: 'DESC' },
      pagination: { offset: 1, limit: 2 },
    });
    expect(desc.skus).toEqual([sku(996), sku(995)]);
    expect(desc.pagination.total).toBe(498);
  });

  it('tests every record of the range when another condition is combined with it', () => {
    const account = newSearchAccount();
    for (let i = 0; i < 200; i++) addRecord(account, sku(i), 1_000 + i, { size: i % 4 === 0 ? 'M' : 'L' });
    const found = run(account, {
      filter: { createdAt: { $gte: 1_100 }, attributes: [{ key: { $eq: 'size' }, value: { $eq: 'M' } }] },
      pagination: { offset: 2, limit: 3 },
    });
    expect(found.plan).toEqual({ index: 'createdAt', examined: 100 });
    expect(found.skus).toEqual([sku(108), sku(112), sku(116)]);
    expect(found.pagination).toEqual({ limit: 3, offset: 2, total: 25, hasMore: true });
  });

  it('sorts DESC with ties by insertion sequence ascending, across page boundaries', () => {
    const account = newSearchAccount();
    // createdAt 10, 20, 20, 20, 30, 30 inserted out of order: seq decides among equals.
    for (const [name, t] of [
      ['a', 20],
      ['b', 30],
      ['c', 10],
      ['d', 20],
      ['e', 30],
      ['f', 20],
    ] as const)
      addRecord(account, name, t);
    const all = ['b', 'e', 'a', 'd', 'f', 'c'];
    const desc = { field: 'createdAt', order: 'DESC' };
    expect(run(account, { sort: desc, pagination: { limit: 500 } }).skus).toEqual(all);
    for (let limit = 1; limit <= 4; limit++) {
      const pages: string[] = [];
      for (let offset = 0; offset < all.length; offset += limit)
        pages.push(...run(account, { sort: desc, pagination: { offset, limit } }).skus);
      expect(pages, `limit ${limit}`).toEqual(all);
    }
    expect(run(account, { filter: { createdAt: { $lte: 20 } }, sort: desc }).skus).toEqual([
      'a',
      'd',
      'f',
      'c',
    ]);
    expect(
      run(account, { filter: { createdAt: { $eq: 20 } }, pagination: { offset: 1, limit: 1 } }).skus,
    ).toEqual(['d']);
  });
});

describe('searchProducts: the same pages as testing, sorting and shuffling every record', () => {
  /** A small deterministic generator (the test repeats exactly). */
  function random(seed: number): (n: number) => number {
    let state = seed >>> 0;
    return (n) => {
      state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
      return state % n;
    };
  }

  for (const tieOrder of ['creation', 'shuffled'] as const) {
    it(`agrees on page, total and hasMore for random ranges, exclusions and filters (${tieOrder})`, () => {
      const pick = random(tieOrder === 'creation' ? 1 : 2);
      const account = newSearchAccount(tieOrder, 7);
      const ties = tieOrder === 'shuffled' ? new TieOrder(7, 'test') : undefined;
      // 300 records over 40 distinct createdAt values (many ties), inserted out of order.
      for (let i = 0; i < 300; i++)
        addRecord(
          account,
          sku(i),
          pick(40) * 10,
          { size: ['S', 'M', 'L'][pick(3)] as string },
          {
            updatedAt: 1_000 + pick(5),
          },
        );
      for (let round = 0; round < 400; round++) {
        const createdAt: Record<string, number> = {};
        if (pick(2)) createdAt[pick(2) ? '$gte' : '$gt'] = pick(45) * 10 - 5 + pick(2) * 5;
        if (pick(2)) createdAt[pick(2) ? '$lte' : '$lt'] = pick(45) * 10;
        if (pick(8) === 0) createdAt.$eq = pick(40) * 10;
        const filter: Record<string, unknown> = {};
        if (Object.keys(createdAt).length > 0) filter.createdAt = createdAt;
        if (pick(2)) filter.skuId = { $nin: Array.from({ length: pick(30) }, () => sku(pick(320))) };
        if (pick(4) === 0) filter.supplierSku = { $ne: `sup-${sku(pick(300))}` };
        if (pick(5) === 0) filter.attributes = [{ key: { $eq: 'size' }, value: { $eq: 'M' } }];
        const sort = [
          { field: 'createdAt', order: 'ASC' },
          { field: 'createdAt', order: 'DESC' },
          { field: 'updatedAt', order: 'DESC' },
        ][pick(3)];
        const body = {
          filter,
          sort,
          pagination: { offset: pick(4) === 0 ? pick(320) : pick(40), limit: pick(25) },
        };
        const expected = reference(account, ties, body);
        const { skus, pagination } = run(account, body);
        expect({ skus, pagination }, JSON.stringify(body)).toEqual(expected);
      }
    });
  }
});
