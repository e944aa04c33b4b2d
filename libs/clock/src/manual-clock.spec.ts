import { describe, expect, it } from 'vitest';
import { ManualClock } from './manual-clock.js';

describe('ManualClock', () => {
  it('wakes sleepers in time order as time advances, and not before', async () => {
    const clock = new ManualClock(1_000);
    const woke: string[] = [];
    void clock.sleep(300).then(() => woke.push(`b@${clock.now()}`));
    void clock.sleep(100).then(() => woke.push(`a@${clock.now()}`));
    await clock.advance(50);
    expect(woke).toEqual([]);
    await clock.advance(250);
    expect(woke).toEqual(['a@1100', 'b@1300']);
    expect(clock.now()).toBe(1_300);
    expect(clock.pendingSleepers).toBe(0);
  });

  it('resolves a non-positive sleep at once', async () => {
    const clock = new ManualClock();
    await expect(clock.sleep(0)).resolves.toBeUndefined();
  });
});
