import type { Clock } from '#lib/clock';
import { type Priority, PriorityQueue } from './priority-queue.js';
import type { RateLimiter } from './rate-limiter.js';

/** What a budget store answers to "may one request go now?". */
export type TakeResult = { granted: true } | { granted: false; waitMs: number };

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class LimiterClosedError extends Error {
  constructor() {
    super('The rate limiter was closed.');
    this.name = 'LimiterClosedError';
  }
}

/** The caller stopped waiting (its `AbortSignal` fired) before it was granted a slot. */
export class LimiterAbortedError extends Error {
  constructor() {
    super('The wait for the rate limiter was aborted.');
    this.name = 'LimiterAbortedError';
  }
}

/**
 * The part every limiter shares: a priority queue of waiting callers and one pump that serves
 * them in order. The pump asks the store for a grant for the caller at the head of the queue; when
 * refused it sleeps on the injected clock for the wait the store named, then asks again (another
 * process may have spent the budget meanwhile). One question in flight at a time per instance.
 *
 * Subclasses provide the store: in memory, Redis or PostgreSQL.
 */
export abstract class QueuedRateLimiter implements RateLimiter {
  private readonly queue = new PriorityQueue<Waiter>();
  private pumping = false;
  private closed = false;

  protected readonly clock: Clock;

  protected constructor(clock: Clock) {
    this.clock = clock;
  }

  /**
   * The store's atomic operation: spends one unit of budget at `now` (the limiter's time, or the
   * store's own when configured so), or says how long to wait. Callers use `acquire`.
   */
  abstract take(now: number): Promise<TakeResult>;

  /** The store's atomic pause: no grants before `now + ms`. Callers use `pause`. */
  abstract storePause(now: number, ms: number): Promise<void>;

  /** Callers waiting for a grant. */
  get waiting(): number {
    return this.queue.size;
  }

  acquire(priority: Priority = 'normal', signal?: AbortSignal): Promise<void> {
    if (this.closed) return Promise.reject(new LimiterClosedError());
    if (signal?.aborted) return Promise.reject(new LimiterAbortedError());
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        // Still queued: leave without spending budget. Already granted: nothing to undo.
        if (this.queue.remove(waiter)) reject(new LimiterAbortedError());
      };
      const waiter: Waiter = {
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(priority, waiter);
      this.kick();
    });
  }

  async pause(ms: number): Promise<void> {
    if (ms <= 0) return;
    await this.storePause(this.clock.now(), ms);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.queue.drain()) waiter.reject(new LimiterClosedError());
  }

  private kick(): void {
    if (this.pumping) return;
    this.pumping = true;
    void this.pump();
  }

  private async pump(): Promise<void> {
    try {
      while (this.queue.size > 0 && !this.closed) {
        let result: TakeResult;
        try {
          result = await this.take(this.clock.now());
        } catch (error) {
          // The store failed: the head caller gets the error (its call is not sent); others retry.
          this.queue.shift()?.reject(error);
          continue;
        }
        // The head may have left (aborted) during `take`: the grant goes to the next caller; with
        // nobody left, that one slot is spent unused (the only budget an abort can cost).
        if (result.granted) this.queue.shift()?.resolve();
        else await this.clock.sleep(Math.max(1, result.waitMs));
      }
    } finally {
      this.pumping = false;
      if (this.queue.size > 0 && !this.closed) this.kick();
    }
  }
}
