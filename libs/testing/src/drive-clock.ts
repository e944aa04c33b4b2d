import type { ManualClock } from '#lib/clock';

/**
 * Runs `work` while moving a ManualClock forward by `stepMs` whenever something sleeps on it,
 * yielding to real I/O (a sandbox's HTTP answers) between steps: time moves only while someone
 * waits on it. Tests that drive rate limiters, retries and poll delays share this one loop.
 */
export async function drive<T>(clock: ManualClock, work: Promise<T>, stepMs = 10): Promise<T> {
  let done = false;
  const tracked = work.finally(() => {
    done = true;
  });
  tracked.catch(() => {});
  for (let steps = 0; !done; steps++) {
    if (steps > 200_000) throw new Error('drive: work never settled');
    await new Promise((resolve) => setImmediate(resolve));
    if (!done && clock.pendingSleepers > 0) await clock.advance(stepMs);
  }
  return tracked;
}
