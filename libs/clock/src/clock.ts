/**
 * The source of time for every time-dependent piece of code. Inject it instead of calling
 * `Date.now()` or `setTimeout` directly, so tests can drive time step by step.
 */
export abstract class Clock {
  /** Milliseconds since the Unix epoch. */
  abstract now(): number;
  /** Resolves after `ms` milliseconds of this clock's time. */
  abstract sleep(ms: number): Promise<void>;
}

/** Wall-clock time. */
export class SystemClock extends Clock {
  now(): number {
    return Date.now();
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
  }
}
