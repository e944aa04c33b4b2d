import { Clock } from './clock.js';

interface Sleeper {
  wakeAt: number;
  resolve: () => void;
}

/**
 * A clock that moves only when told to. `advance` wakes every sleeper whose time has come,
 * in order, so tests assert mechanisms (what happened after N ms) rather than durations.
 */
export class ManualClock extends Clock {
  private current: number;
  private sleepers: Sleeper[] = [];

  constructor(start = Date.UTC(2026, 0, 1)) {
    super();
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.sleepers.push({ wakeAt: this.current + ms, resolve });
    });
  }

  /** Moves time forward, waking sleepers due on the way and letting their continuations run. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      this.sleepers.sort((a, b) => a.wakeAt - b.wakeAt);
      const next = this.sleepers[0];
      if (!next || next.wakeAt > target) break;
      this.sleepers.shift();
      this.current = next.wakeAt;
      next.resolve();
      await flushMicrotasks();
    }
    this.current = target;
    await flushMicrotasks();
  }

  /** Sets the time without waking anyone (for records' timestamps in fixtures). */
  set(ms: number): void {
    this.current = ms;
  }

  get pendingSleepers(): number {
    return this.sleepers.length;
  }
}

async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}
