import { describe, expect, it } from 'vitest';
import { ConcurrencyLimit } from './concurrency-limit.js';

describe('ConcurrencyLimit', () => {
  it('runs at most `max` tasks at once, the others in the order they came', async () => {
    const limit = new ConcurrencyLimit(3);
    const started: number[] = [];
    const finish: Array<() => void> = [];
    let peak = 0;
    const runs = Array.from({ length: 10 }, (_, i) =>
      limit.run(async () => {
        started.push(i);
        peak = Math.max(peak, limit.running);
        await new Promise<void>((resolve) => finish.push(resolve));
        return i;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    expect(limit.waiting).toBe(7);
    while (finish.length > 0 || started.length < 10) {
      finish.shift()?.();
      for (let i = 0; i < 5; i++) await Promise.resolve();
    }
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(peak).toBe(3);
    expect(limit.running).toBe(0);
  });

  it('frees the slot of a task that fails', async () => {
    const limit = new ConcurrencyLimit(1);
    await expect(limit.run(async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await limit.run(async () => 'next')).toBe('next');
    expect(limit.running).toBe(0);
  });
});
