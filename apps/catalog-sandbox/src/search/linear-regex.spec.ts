import { describe, expect, it } from 'vitest';
import { CatalogApiError } from '../http/catalog-api.error.js';
import { compileLinearRegex, LINEAR_REGEX_EXPECTED, MAX_REGEX_LENGTH } from './linear-regex.js';

function refusal(pattern: string): CatalogApiError {
  try {
    compileLinearRegex(pattern, 'attributes[0].value.$regex');
  } catch (error) {
    if (error instanceof CatalogApiError) return error;
    throw error;
  }
  throw new Error(`pattern ${pattern} was accepted`);
}

describe('compileLinearRegex', () => {
  it('compiles with the linear-time engine, case-sensitive', () => {
    const regex = compileLinearRegex('^ab+c', 'f');
    expect(regex.flags).toBe('l');
    expect(regex.test('abbbc')).toBe(true);
    expect(regex.test('ABC')).toBe(false);
  });

  it('answers a catastrophic-backtracking pattern on a long non-matching value (no match)', () => {
    const regex = compileLinearRegex('^(a+)+$', 'f');
    expect(regex.test(`${'a'.repeat(50_000)}b`)).toBe(false);
    expect(regex.test('a'.repeat(50_000))).toBe(true);
  });

  it('refuses backreferences and lookahead as invalid_query_structure at the field', () => {
    for (const pattern of ['(a)\\1', 'a(?=b)', 'a(?!b)']) {
      const error = refusal(pattern);
      expect(error.code).toBe('invalid_query_structure');
      expect(error.extras.details).toEqual({
        field: 'attributes[0].value.$regex',
        expected: LINEAR_REGEX_EXPECTED,
        received: 'string',
      });
    }
  });

  it('refuses an invalid pattern and one over the length cap', () => {
    expect(refusal('(unclosed').extras.details).toMatchObject({ expected: 'a valid regular expression' });
    expect(refusal('a'.repeat(MAX_REGEX_LENGTH + 1)).extras.details).toMatchObject({
      expected: `a regular expression of at most ${MAX_REGEX_LENGTH} characters`,
    });
    expect(compileLinearRegex('a'.repeat(MAX_REGEX_LENGTH), 'f').test('a'.repeat(MAX_REGEX_LENGTH))).toBe(
      true,
    );
  });
});
