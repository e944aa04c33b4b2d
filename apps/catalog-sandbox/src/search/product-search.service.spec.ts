import { describe, expect, it } from 'vitest';
import { addRecord, newSearchAccount } from '../../test/search-account.js';
import type { Account } from '../accounts/account.js';
import { searchProducts } from './product-search.service.js';

const newAccount = () => newSearchAccount();
const add = addRecord;

const skus = (account: Account, body: unknown) =>
  searchProducts(account, body).response.products.map((p) => p.skuId);

describe('searchProducts', () => {
  it('examines only the indexed candidates for supplierSku and skuId lookups', () => {
    const account = newAccount();
    for (let i = 0; i < 20_000; i++) add(account, `SK${String(i).padStart(8, '0')}`, 1_000 + i);
    add(account, 'SK99999999', 50_000, {}, { supplierSku: 'sup-SK00000007' });

    const bySupplier = searchProducts(account, { filter: { supplierSku: { $eq: 'sup-SK00000007' } } });
    expect(bySupplier.plan).toEqual({ index: 'supplierSku', examined: 2 });
    expect(bySupplier.response.products.map((p) => p.skuId)).toEqual(['SK00000007', 'SK99999999']);

    const bySku = searchProducts(account, {
      filter: { skuId: { $in: ['SK00000001', 'SK00000002', 'nope'] } },
    });
    expect(bySku.plan).toEqual({ index: 'skuId', examined: 2 });

    const both = searchProducts(account, {
      filter: { skuId: { $in: ['SK00000001', 'SK00000002'] }, supplierSku: { $eq: 'sup-SK00000002' } },
    });
    expect(both.plan).toEqual({ index: 'supplierSku', examined: 1 });
    expect(both.response.products.map((p) => p.skuId)).toEqual(['SK00000002']);
  });

  it('scans a createdAt range through the index, exact bounds for fractional operands', () => {
    const account = newAccount();
    for (let i = 0; i < 1_000; i++) add(account, `SK${String(i).padStart(8, '0')}`, i);
    const result = searchProducts(account, {
      filter: { createdAt: { $gt: 9.5, $lt: 20 } },
      pagination: { limit: 500 },
    });
    expect(result.plan).toEqual({ index: 'createdAt', examined: 10 });
    expect(result.response.pagination.total).toBe(10);
    expect(result.response.products[0]?.createdAt).toBe(10);
    expect(searchProducts(account, { filter: { createdAt: { $eq: 42 } } }).plan.examined).toBe(1);
    expect(searchProducts(account, { filter: { keyword: 'x' } }).plan).toEqual({
      index: 'createdAt',
      examined: 1_000,
    });
    expect(
      searchProducts(account, { filter: { keyword: 'x' }, sort: { field: 'updatedAt', order: 'ASC' } }).plan
        .index,
    ).toBe('scan');
  });

  it('breaks createdAt ties by insertion sequence ascending in both orders', () => {
    const account = newAccount();
    add(account, 'SK00000003', 20);
    add(account, 'SK00000002', 10);
    add(account, 'SK00000001', 10);
    add(account, 'SK00000004', 30);
    expect(skus(account, {})).toEqual(['SK00000002', 'SK00000001', 'SK00000003', 'SK00000004']);
    expect(skus(account, { sort: { field: 'createdAt', order: 'DESC' } })).toEqual([
      'SK00000004',
      'SK00000003',
      'SK00000002',
      'SK00000001',
    ]);
  });

  it('sorts records without dataEnrichment.completedAt last in both orders', () => {
    const account = newAccount();
    add(account, 'SK00000001', 1);
    add(
      account,
      'SK00000002',
      2,
      {},
      { dataEnrichment: { taskId: 'TK00000001', status: 'FINISHED', completedAt: 500 } },
    );
    add(account, 'SK00000003', 3, {}, { dataEnrichment: { taskId: 'TK00000002', status: 'IN_PROGRESS' } });
    add(
      account,
      'SK00000004',
      4,
      {},
      { dataEnrichment: { taskId: 'TK00000003', status: 'FAILED', completedAt: 700 } },
    );
    const field = 'dataEnrichment.completedAt';
    expect(skus(account, { sort: { field, order: 'ASC' } })).toEqual([
      'SK00000002',
      'SK00000004',
      'SK00000001',
      'SK00000003',
    ]);
    expect(skus(account, { sort: { field, order: 'DESC' } })).toEqual([
      'SK00000004',
      'SK00000002',
      'SK00000001',
      'SK00000003',
    ]);
  });

  it('matches variants on inherited values and on their own', () => {
    const account = newAccount();
    const parent = add(account, 'SK00000001', 1, { brand: 'Acme', tags: ['a', 'b'] });
    add(account, 'SK00000002', 2, { brand: 'Other', size: 'M' }, { parentSkuId: parent.skuId });
    parent.variantSkuIds.push('SK00000002');
    const brandAcme = { attributes: [{ key: { $eq: 'brand' }, value: { $eq: 'Acme' } }] };
    expect(skus(account, { filter: brandAcme })).toEqual(['SK00000001', 'SK00000002']);
    expect(
      skus(account, { filter: { attributes: [{ key: { $eq: 'size' }, value: { $eq: 'M' } }] } }),
    ).toEqual(['SK00000002']);
    expect(
      skus(account, { filter: { attributes: [{ key: { $eq: 'tags' }, value: { $nin: ['b'] } }] } }),
    ).toEqual([]);
  });

  it('filters on the completion rate, computed from the summary', () => {
    const account = newAccount();
    add(account, 'SK00000001', 1);
    const rate = (body: unknown) => skus(account, body);
    expect(rate({ filter: { attributeSummary: { enrichableCompletionRate: { $lte: 0 } } } })).toEqual([
      'SK00000001',
    ]);
    expect(rate({ filter: { 'attributeSummary.enrichableCompletionRate': { $gt: 0 } } })).toEqual([]);
  });
});
