import { describe, expect, it } from 'vitest';
import { errorOf } from '../../test/error-of.js';
import { type FieldValue, matchesAll } from './condition-matcher.js';
import { type FieldSpec, parseConditions } from './filter-condition.js';

const TEXT: FieldSpec = { type: 'string', nullable: true, numbersAsStrings: true };
const NUMBER: FieldSpec = { type: 'number', nullable: false };

const test = (operators: unknown, value: FieldValue, spec: FieldSpec = TEXT) =>
  matchesAll(parseConditions(operators, 'f', spec), value);

describe('operator conditions', () => {
  it('applies the ten operators to a string value', () => {
    expect(test({ $eq: 'M' }, 'M')).toBe(true);
    expect(test({ $eq: 'M' }, 'L')).toBe(false);
    expect(test({ $ne: 'M' }, 'L')).toBe(true);
    expect(test({ $gt: 'L' }, 'M')).toBe(true);
    expect(test({ $gte: 'M' }, 'M')).toBe(true);
    expect(test({ $lt: 'M' }, 'L')).toBe(true);
    expect(test({ $lte: 'L' }, 'M')).toBe(false);
    expect(test({ $in: ['S', 'M'] }, 'M')).toBe(true);
    expect(test({ $nin: ['S', 'M'] }, 'M')).toBe(false);
    expect(test({ $exists: true }, 'M')).toBe(true);
    expect(test({ $regex: '^M$' }, 'M')).toBe(true);
  });

  it('compares numbers-as-strings lexicographically, numbers numerically', () => {
    expect(test({ $gt: '9' }, '10')).toBe(false);
    expect(test({ $gt: 9 }, '10')).toBe(false);
    expect(test({ $lt: '9' }, '10')).toBe(true);
    expect(test({ $gt: 9 }, 10, NUMBER)).toBe(true);
  });

  it('ANDs the operators of one object (ranges)', () => {
    expect(test({ $gte: 10, $lte: 20 }, 15, NUMBER)).toBe(true);
    expect(test({ $gte: 10, $lte: 20 }, 25, NUMBER)).toBe(false);
  });

  it('matches arrays when any element matches, $ne/$nin when none does', () => {
    const tags = ['eco', 'new'];
    expect(test({ $eq: 'eco' }, tags)).toBe(true);
    expect(test({ $in: ['vegan', 'new'] }, tags)).toBe(true);
    expect(test({ $regex: '^ne' }, tags)).toBe(true);
    expect(test({ $ne: 'eco' }, tags)).toBe(false);
    expect(test({ $ne: 'vegan' }, tags)).toBe(true);
    expect(test({ $nin: ['vegan', 'eco'] }, tags)).toBe(false);
  });

  it('treats a missing value: $exists false, $ne/$nin hold, null means no value', () => {
    expect(test({ $exists: false }, undefined)).toBe(true);
    expect(test({ $exists: false }, 'x')).toBe(false);
    expect(test({ $ne: 'x' }, undefined)).toBe(true);
    expect(test({ $nin: ['x'] }, undefined)).toBe(true);
    expect(test({ $eq: 'x' }, undefined)).toBe(false);
    expect(test({ $gt: '' }, undefined)).toBe(false);
    expect(test({ $eq: null }, undefined)).toBe(true);
    expect(test({ $ne: null }, 'x')).toBe(true);
    expect(test({ $in: [null, 'y'] }, undefined)).toBe(true);
  });

  it('refuses a value in place of an operator object, naming field, expected and received', () => {
    const error = errorOf(() => parseConditions('abc', 'supplierSku', TEXT));
    expect(error.code).toBe('invalid_query_structure');
    expect(error.extras.details).toMatchObject({ field: 'supplierSku', received: 'string' });
    expect(errorOf(() => parseConditions({}, 'f', TEXT)).code).toBe('invalid_query_structure');
  });

  it('refuses unknown operators with the list of the ten', () => {
    for (const op of ['$foo', '$like', '$options', 'eq']) {
      const error = errorOf(() => parseConditions({ [op]: 'x' }, 'f', TEXT));
      expect(error.code).toBe('unsupported_operator');
      expect(error.extras.supported_operators).toHaveLength(10);
    }
  });

  it('refuses operands of the wrong type at field.operator', () => {
    const cases: Array<[unknown, FieldSpec, string]> = [
      [{ $in: 'x' }, TEXT, 'f.$in'],
      [{ $exists: 'yes' }, TEXT, 'f.$exists'],
      [{ $gte: '17' }, NUMBER, 'f.$gte'],
      [{ $regex: 'a' }, NUMBER, 'f.$regex'],
      [{ $regex: 5 }, TEXT, 'f.$regex'],
      [{ $eq: null }, NUMBER, 'f.$eq'],
      [{ $gt: null }, TEXT, 'f.$gt'],
      [{ $eq: true }, TEXT, 'f.$eq'],
      [{ $in: ['a', {}] }, TEXT, 'f.$in[1]'],
    ];
    for (const [operators, spec, field] of cases) {
      const error = errorOf(() => parseConditions(operators, 'f', spec));
      expect(error.code, JSON.stringify(operators)).toBe('invalid_query_structure');
      expect(error.extras.details).toMatchObject({ field });
    }
  });

  it('checks enumerated values', () => {
    const status: FieldSpec = { type: 'string', nullable: true, allowed: ['FINISHED', 'FAILED'] };
    expect(test({ $in: ['FINISHED'] }, 'FINISHED', status)).toBe(true);
    expect(errorOf(() => parseConditions({ $in: ['DONE'] }, 'f', status)).code).toBe(
      'invalid_query_structure',
    );
  });
});
