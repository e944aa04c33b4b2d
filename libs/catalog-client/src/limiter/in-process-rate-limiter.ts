import { type Clock, SystemClock } from '#lib/clock';
import {
  checkBudget,
  DEFAULT_RATE_BUDGET,
  type GcraState,
  gcraPause,
  gcraTake,
  type RateBudget,
} from './gcra.js';
import { QueuedRateLimiter, type TakeResult } from './queued-rate-limiter.js';

export interface InProcessRateLimiterOptions extends Partial<RateBudget> {
  clock?: Clock;
}

/**
 * The budget kept in this process's memory: right for one connector process. Share one instance
 * between every client using the same API key.
 */
export class InProcessRateLimiter extends QueuedRateLimiter {
  private state: GcraState = { tat: 0, pausedUntil: 0 };
  private readonly budget: RateBudget;

  constructor(options: InProcessRateLimiterOptions = {}) {
    super(options.clock ?? new SystemClock());
    this.budget = checkBudget({
      ratePerSecond: options.ratePerSecond ?? DEFAULT_RATE_BUDGET.ratePerSecond,
      burst: options.burst ?? DEFAULT_RATE_BUDGET.burst,
    });
  }

  async take(now: number): Promise<TakeResult> {
    const verdict = gcraTake(this.state, this.budget, now);
    if (!verdict.granted) return verdict;
    this.state = verdict.state;
    return { granted: true };
  }

  async storePause(now: number, ms: number): Promise<void> {
    this.state = gcraPause(this.state, this.budget, now, ms);
  }
}
