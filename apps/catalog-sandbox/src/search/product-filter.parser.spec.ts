import { describe, expect, it } from 'vitest';
import { errorOf as errorOfRun } from '../../test/error-of.js';
import { parseProductFilter } from './product-filter.parser.js';

const errorOf = (filter: unknown) => errorOfRun(() => parseProductFilter(filter));

describe('parseProductFilter', () => {
  it('reads nested and dotted enrichment and completion filters alike', () => {
    const nested = parseProductFilter({
      dataEnrichment: { status: { $in: ['FINISHED'] }, completedAt: { $gte: 5 } },
      attributeSummary: { enrichableCompletionRate: { $gte: 50 } },
    });
    const dotted = parseProductFilter({
      'dataEnrichment.status': { $in: ['FINISHED'] },
      'dataEnrichment.completedAt': { $gte: 5 },
      'attributeSummary.enrichableCompletionRate': { $gte: 50 },
    });
    expect(dotted).toEqual(nested);
    expect(nested.enrichmentStatus).toEqual([{ op: '$in', operands: ['FINISHED'] }]);
    expect(parseProductFilter({ dataEnrichment: { $exists: false } }).enrichmentStatus).toEqual([
      { op: '$exists', exists: false },
    ]);
  });

  it('reads an attributes entry with only a key as "has a value"', () => {
    const query = parseProductFilter({ attributes: [{ key: { $eq: 'brand' } }], keyword: 'ACME' });
    expect(query.attributes).toEqual([
      { key: [{ op: '$eq', operand: 'brand' }], value: [{ op: '$exists', exists: true }] },
    ]);
    expect(query.keyword).toBe('acme');
  });

  it('refuses off-shape filters with invalid_query_structure and the field', () => {
    const cases: Array<[unknown, string]> = [
      [{ supplierSku: 'abc' }, 'supplierSku'],
      [{ attributes: [{ key: 'brand', value: { $eq: 'Acme' } }] }, 'attributes[0].key'],
      [{ attributes: [{ key: { $eq: 'brand' }, value: 'Acme' }] }, 'attributes[0].value'],
      [{ attributes: [{ value: { $eq: 'Acme' } }] }, 'attributes[0].key'],
      [{ attributes: { key: { $eq: 'brand' } } }, 'attributes'],
      [{ attributes: [{ key: { $eq: 'brand' }, other: 1 }] }, 'attributes[0].other'],
      [{ keyword: 5 }, 'keyword'],
      [{ price: { $eq: '1' } }, 'price'],
      [{ dataEnrichment: { taskId: { $eq: 'x' } } }, 'dataEnrichment.taskId'],
      [{ dataEnrichment: 'FINISHED' }, 'dataEnrichment'],
      [{ 'dataEnrichment.status': { $in: ['DONE'] } }, 'dataEnrichment.status.$in[0]'],
      [{ createdAt: { $gte: '2024-01-01' } }, 'createdAt.$gte'],
      ['x', 'filter'],
    ];
    for (const [filter, field] of cases) {
      const error = errorOf(filter);
      expect(error.code, JSON.stringify(filter)).toBe('invalid_query_structure');
      expect(error.extras.details).toMatchObject({ field });
    }
  });

  it('refuses $-keys in field position as unsupported operators', () => {
    for (const filter of [{ $or: [] }, { dataEnrichment: { $eq: null } }, { supplierSku: { $like: 'a' } }]) {
      expect(errorOf(filter).code).toBe('unsupported_operator');
    }
  });
});
