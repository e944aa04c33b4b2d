import { describe, expect, it } from 'vitest';
import { WATCHLIST_CHUNK, watchlistTurn } from './review-watchlist.js';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `S${i}`);

describe('watchlistTurn', () => {
  it('re-checks a watchlist within the poll limit whole, every time', () => {
    const all = ids(3 * WATCHLIST_CHUNK);
    expect(watchlistTurn(all, 0, 3)).toEqual({ due: all, nextOffset: 0 });
    // A stored offset from a longer list earlier changes nothing.
    expect(watchlistTurn(all, 700, 3)).toEqual({ due: all, nextOffset: 0 });
  });

  it('takes a turn of maxCalls searches from the offset, wrapping round to the start', () => {
    const all = ids(1_200);
    expect(watchlistTurn(all, 0, 1)).toEqual({ due: all.slice(0, 500), nextOffset: 500 });
    expect(watchlistTurn(all, 1_000, 1)).toEqual({
      due: [...all.slice(1_000), ...all.slice(0, 300)],
      nextOffset: 300,
    });
  });

  it('starts again from the beginning when the stored offset is past a list that shrank', () => {
    expect(watchlistTurn(ids(1_200), 5_000, 2).due[0]).toBe('S0');
    expect(watchlistTurn(ids(1_200), -3, 2).due[0]).toBe('S0');
  });
});
