import type { Type } from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import { connectorValidationPipe } from '../../platform/http/connector-validation.pipe.js';
import {
  DismissFailuresBody,
  dismissTargetsOf,
  FailureListQuery,
  FailureReplayQuery,
  failureFilterOf,
  failureIdOf,
  pageOf,
} from './failure-query.js';

const pipe = connectorValidationPipe();
const read = <T>(metatype: Type<T>, value: Record<string, unknown>, type: 'query' | 'body' = 'query') =>
  pipe.transform(value, { type, metatype }) as Promise<T>;

const details = async (attempt: () => unknown) => {
  try {
    await attempt();
  } catch (error) {
    return { code: (error as { code: string }).code, ...(error as { details?: object }).details };
  }
  throw new Error('expected an error');
};

describe('failure queries', () => {
  it('reads the filters and the page, with defaults', async () => {
    const query = await read(FailureListQuery, {
      shop: 'Demo.myshopify.com',
      jobKind: 'sync-product',
      state: 'open',
      subject: '42',
    });
    expect(failureFilterOf(query)).toEqual({
      shop: 'demo.myshopify.com',
      jobKind: 'sync-product',
      state: 'open',
      subjectKey: '42',
    });
    expect(pageOf(await read(FailureListQuery, {}))).toEqual({ limit: 50, offset: 0 });
    expect(pageOf(await read(FailureListQuery, { limit: '500', offset: '10' }))).toEqual({
      limit: 500,
      offset: 10,
    });
  });

  it('names the bad parameter', async () => {
    expect(await details(() => read(FailureListQuery, { state: 'closed' }))).toMatchObject({
      code: 'bad_request',
      parameter: 'state',
    });
    expect(await details(() => read(FailureListQuery, { shop: ['a', 'b'] }))).toMatchObject({
      parameter: 'shop',
    });
    expect(await details(() => read(FailureListQuery, { sort: 'id' }))).toMatchObject({ parameter: 'sort' });
    for (const limit of ['0', '501', 'x', '1.5']) {
      expect(await details(() => read(FailureListQuery, { limit }))).toMatchObject({ parameter: 'limit' });
    }
    expect(await details(() => read(FailureReplayQuery, { offset: '3' }))).toMatchObject({
      parameter: 'offset',
    });
    expect(await details(() => read(FailureReplayQuery, { state: 'dismissed' }))).toMatchObject({
      parameter: 'state',
    });
  });

  it('lists every wrong field in details.fields', async () => {
    expect(await details(() => read(FailureListQuery, { state: 'closed', limit: '0' }))).toMatchObject({
      parameter: 'state',
      fields: [{ name: 'state' }, { name: 'limit' }],
    });
  });

  it('takes only positive integer ids that fit a bigint', async () => {
    expect(failureIdOf('17')).toBe('17');
    expect(failureIdOf('9223372036854775807')).toBe('9223372036854775807');
    for (const id of ['0', '017', 'abc', '1e3', '9223372036854775808', '99999999999999999999']) {
      expect(await details(() => failureIdOf(id))).toMatchObject({ code: 'not_found' });
    }
  });
});

describe('dismissTargetsOf', () => {
  const body = (value: Record<string, unknown>) => read(DismissFailuresBody, value, 'body');

  it('takes ids (deduplicated) or an open-failures filter with a limit', async () => {
    expect(dismissTargetsOf(await body({ ids: ['3', '3', '7'] }))).toEqual({ ids: ['3', '7'] });
    expect(dismissTargetsOf(await body({ shop: 'a.myshopify.com', limit: 5 }))).toEqual({
      filter: { shop: 'a.myshopify.com', jobKind: undefined, subjectKey: undefined, state: 'open' },
      limit: 5,
    });
  });

  it('refuses a bad id, ids with a filter, another state, and a filter naming nothing', async () => {
    const parameterOf = async (value: Record<string, unknown>) => {
      try {
        dismissTargetsOf(await body(value));
      } catch (error) {
        return (error as { details?: { parameter?: string } }).details?.parameter;
      }
      return 'accepted';
    };
    expect(await parameterOf({ ids: ['x'] })).toBe('ids');
    expect(await parameterOf({ ids: [] })).toBe('ids');
    expect(await parameterOf({ ids: ['9223372036854775808'] })).toBe('ids');
    expect(await parameterOf({ ids: ['1'], shop: 'a.myshopify.com' })).toBe('shop');
    expect(await parameterOf({ shop: 'a.myshopify.com', state: 'dismissed' })).toBe('state');
    expect(await parameterOf({ limit: 5 })).toBe('ids');
  });
});

describe('the messages of a bad filter', () => {
  it('says what state may be, in the words the CLI prints', async () => {
    try {
      await read(FailureListQuery, { state: 'closed' });
    } catch (error) {
      expect((error as Error).message).toBe('state must be one of open, replayed, dismissed, resolved.');
      return;
    }
    throw new Error('expected an error');
  });
});
