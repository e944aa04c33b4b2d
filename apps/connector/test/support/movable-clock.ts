import { Clock } from '#lib/clock';

/**
 * A connector's clock for e2e tests: the wall clock, moved forward when the test says so
 * (`offsetMs`), so time-based rules (a backlog's age, a list's last hours) show without waiting.
 */
export class MovableClock extends Clock {
  offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
  }
}
