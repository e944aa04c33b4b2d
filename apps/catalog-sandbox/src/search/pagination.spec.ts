import { describe, expect, it } from 'vitest';
import { errorOf } from '../../test/error-of.js';
import { parsePagination } from './pagination.js';

describe('parsePagination', () => {
  const rules = { defaultLimit: 20, maxLimit: 500 };
  it('applies defaults and refuses limits above the maximum, however large', () => {
    expect(parsePagination(undefined, rules)).toEqual({ limit: 20, offset: 0 });
    expect(parsePagination({ offset: 3 }, rules)).toEqual({ limit: 20, offset: 3 });
    expect(errorOf(() => parsePagination({ limit: 1e21 }, rules)).extras.details).toEqual({
      requested_limit: 1e21,
      max_limit: 500,
    });
    expect(errorOf(() => parsePagination({ limit: 2.5 }, rules)).code).toBe('invalid_query_structure');
  });
});
