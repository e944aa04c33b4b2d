import { describe, expect, it } from 'vitest';
import { dismissTargetsOf, failureFilterOf, failureIdOf, pageOf } from './failure-query.js';

const details = (attempt: () => unknown) => {
  try {
    attempt();
  } catch (error) {
    return { code: (error as { code: string }).code, ...(error as { details?: object }).details };
  }
  throw new Error('expected an error');
};

describe('failure queries', () => {
  it('reads the filters and the page, with defaults', () => {
    expect(
      failureFilterOf({ shop: 'Demo.myshopify.com', jobKind: 'sync-product', state: 'open', subject: '42' }),
    ).toEqual({
      shop: 'demo.myshopify.com',
      jobKind: 'sync-product',
      state: 'open',
      subjectKey: '42',
    });
    expect(pageOf({})).toEqual({ limit: 50, offset: 0 });
    expect(pageOf({ limit: '500', offset: '10' })).toEqual({ limit: 500, offset: 10 });
  });

  it('names the bad parameter', () => {
    expect(details(() => failureFilterOf({ state: 'closed' }))).toEqual({
      code: 'bad_request',
      parameter: 'state',
    });
    expect(details(() => failureFilterOf({ shop: ['a', 'b'] }))).toMatchObject({ parameter: 'shop' });
    expect(details(() => failureFilterOf({ sort: 'id' }))).toMatchObject({ parameter: 'sort' });
    for (const limit of ['0', '501', '1.5', '-1', 'ten']) {
      expect(details(() => pageOf({ limit }))).toMatchObject({ parameter: 'limit' });
    }
  });

  it('takes only positive integer ids that fit a bigint', () => {
    expect(failureIdOf('17')).toBe('17');
    expect(failureIdOf('9223372036854775807')).toBe('9223372036854775807');
    for (const id of ['0', '017', 'abc', '1e3', '9223372036854775808', '99999999999999999999']) {
      expect(details(() => failureIdOf(id))).toMatchObject({ code: 'not_found' });
    }
  });
});

describe('dismissTargetsOf', () => {
  it('takes ids (deduplicated) or an open-failures filter with a limit', () => {
    expect(dismissTargetsOf({ ids: ['3', '3', '7'] })).toEqual({ ids: ['3', '7'] });
    expect(dismissTargetsOf({ shop: 'a.myshopify.com', limit: 5 })).toEqual({
      filter: { shop: 'a.myshopify.com', jobKind: undefined, subjectKey: undefined, state: 'open' },
      limit: 5,
    });
  });

  it('refuses a bad id, ids with a filter, another state, and a filter naming nothing', () => {
    const parameterOf = (body: Record<string, unknown>) => {
      try {
        dismissTargetsOf(body);
      } catch (error) {
        return (error as { details?: { parameter?: string } }).details?.parameter;
      }
      return 'accepted';
    };
    expect(parameterOf({ ids: ['x'] })).toBe('ids');
    expect(parameterOf({ ids: [] })).toBe('ids');
    expect(parameterOf({ ids: ['1'], shop: 'a.myshopify.com' })).toBe('shop');
    expect(parameterOf({ shop: 'a.myshopify.com', state: 'dismissed' })).toBe('state');
    expect(parameterOf({ limit: 5 })).toBe('ids');
  });
});
