import { describe, expect, it } from 'vitest';
import { type AlertMemory, debounce } from './alert-debounce.js';

const MINUTE = 60_000;
const DEBOUNCE = 2 * MINUTE;

/** Looks at a shop through a series of states, one look per entry (ms, state); the changes sent. */
function run(
  looks: Array<[number, string]>,
  debounceMs = DEBOUNCE,
): Array<{ at: number; from: string; to: string }> {
  let memory: AlertMemory | null = null;
  const sent: Array<{ at: number; from: string; to: string }> = [];
  for (const [at, state] of looks) {
    const outcome = debounce(memory, state, at, debounceMs);
    memory = outcome.memory;
    if (outcome.change) sent.push({ at, from: outcome.change.from, to: outcome.change.to });
  }
  return sent;
}

describe('the alerts debounce', () => {
  it('sends nothing for a shop that stays healthy', () => {
    expect(
      run([
        [0, 'healthy'],
        [MINUTE, 'healthy'],
        [10 * MINUTE, 'healthy'],
      ]),
    ).toEqual([]);
  });

  it('sends a change once it has held for the debounce, and only once', () => {
    expect(
      run([
        [0, 'healthy'],
        [MINUTE, 'failing'],
        [2 * MINUTE, 'failing'],
        [3 * MINUTE, 'failing'],
        [4 * MINUTE, 'failing'],
        [10 * MINUTE, 'failing'],
      ]),
    ).toEqual([{ at: 3 * MINUTE, from: 'healthy', to: 'failing' }]);
  });

  it('sends nothing for a flap shorter than the debounce', () => {
    expect(
      run([
        [0, 'healthy'],
        [MINUTE, 'failing'],
        [2 * MINUTE, 'healthy'],
        [3 * MINUTE, 'degraded'],
        [4 * MINUTE, 'healthy'],
        [20 * MINUTE, 'healthy'],
      ]),
    ).toEqual([]);
  });

  it('sends the way back too, once it has held', () => {
    expect(
      run([
        [0, 'degraded'],
        [2 * MINUTE, 'degraded'],
        [3 * MINUTE, 'healthy'],
        [4 * MINUTE, 'degraded'],
        [5 * MINUTE, 'healthy'],
        [7 * MINUTE, 'healthy'],
      ]),
    ).toEqual([
      { at: 2 * MINUTE, from: 'healthy', to: 'degraded' },
      { at: 7 * MINUTE, from: 'degraded', to: 'healthy' },
    ]);
  });

  it('counts a shop bouncing between two bad states from when it left, and sends the state it is in', () => {
    expect(
      run([
        [0, 'degraded'],
        [MINUTE, 'failing'],
        [2 * MINUTE, 'degraded'],
        [3 * MINUTE, 'failing'],
      ]),
    ).toEqual([{ at: 2 * MINUTE, from: 'healthy', to: 'degraded' }]);
  });

  it('sends at the first look with no debounce', () => {
    expect(
      run(
        [
          [0, 'failing'],
          [1, 'healthy'],
        ],
        0,
      ),
    ).toEqual([
      { at: 0, from: 'healthy', to: 'failing' },
      { at: 1, from: 'failing', to: 'healthy' },
    ]);
  });
});
