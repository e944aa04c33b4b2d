import { describe, expect, it } from 'vitest';
import { connection } from './connection.js';

const items = [1, 2, 3, 4, 5].map((id) => ({ id }));
const page = (args: Parameters<typeof connection>[1], list = items, descending = false) =>
  connection(
    list,
    args,
    (i) => [i.id, i.id],
    (i) => i.id,
    descending,
  ) as {
    nodes: number[];
    pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; endCursor: string; startCursor: string };
  };

describe('connection', () => {
  it('pages forward with cursors', () => {
    const first = page({ first: 2 });
    expect(first.nodes).toEqual([1, 2]);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const second = page({ first: 2, after: first.pageInfo.endCursor });
    expect(second.nodes).toEqual([3, 4]);
    const last = page({ first: 2, after: second.pageInfo.endCursor });
    expect(last.nodes).toEqual([5]);
    expect(last.pageInfo.hasNextPage).toBe(false);
  });

  it('keeps a cursor valid when its item is gone', () => {
    const cursor = page({ first: 3 }).pageInfo.endCursor;
    expect(
      page(
        { first: 5, after: cursor },
        items.filter((i) => i.id !== 3),
      ).nodes,
    ).toEqual([4, 5]);
  });

  it('pages backward and in descending order', () => {
    expect(page({ last: 2 }).nodes).toEqual([4, 5]);
    const descending = [...items].reverse();
    const first = page({ first: 2 }, descending, true);
    expect(first.nodes).toEqual([5, 4]);
    expect(page({ first: 2, after: first.pageInfo.endCursor }, descending, true).nodes).toEqual([3, 2]);
  });

  it('requires first or last, at most 250, and a valid cursor', () => {
    expect(() => page({})).toThrow('you must provide one of first or last');
    expect(() => page({ first: 251 })).toThrow(/more than 250/);
    expect(() => page({ first: 1, after: 'garbage' })).toThrow(/Invalid cursor/);
  });
});
