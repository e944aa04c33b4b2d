import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { type Clock, SystemClock } from '#lib/clock';
import { checkBudget, DEFAULT_RATE_BUDGET, intervalMs, type RateBudget, toleranceMs } from './gcra.js';
import { QueuedRateLimiter, type TakeResult } from './queued-rate-limiter.js';

export interface RedisRateLimiterOptions extends Partial<RateBudget> {
  /** An ioredis connection; the caller owns it (and closes it). */
  redis: Redis;
  /** The budget's name: `apiKeyFingerprint(apiKey)`, never the key itself. */
  bucket: string;
  /** Key prefix. Default `catalog-client:rate:`. */
  prefix?: string;
  /** For sleeping (and for "now" with `timeSource: 'clock'`). */
  clock?: Clock;
  /**
   * Whose time the budget is computed on: Redis's (`TIME`, default; replicas' clocks may
   * differ) or the limiter's clock (tests with a ManualClock).
   */
  timeSource?: 'server' | 'clock';
}

/**
 * The GCRA of gcra.ts in one Lua script, so a grant is atomic across every process using the
 * same Redis: a hash per bucket with `tat` and `pausedUntil`. Returns -1 for a grant, else the
 * milliseconds to wait. ARGV: now (-1: Redis TIME), interval, tolerance, op, pause ms.
 */
const SCRIPT = `
local now = tonumber(ARGV[1])
if now < 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local interval = tonumber(ARGV[2])
local tolerance = tonumber(ARGV[3])
local tat = tonumber(redis.call('HGET', KEYS[1], 'tat') or '0')
local paused = tonumber(redis.call('HGET', KEYS[1], 'pausedUntil') or '0')
if ARGV[4] == 'pause' then
  paused = math.max(paused, now + tonumber(ARGV[5]))
  tat = math.max(tat, paused + tolerance)
  redis.call('HSET', KEYS[1], 'tat', string.format('%.3f', tat), 'pausedUntil', string.format('%.3f', paused))
  redis.call('PEXPIRE', KEYS[1], math.ceil(tat - now) + 60000)
  return 0
end
if now < paused then return math.ceil(paused - now) end
if tat < now then tat = now end
local ahead = tat - now - tolerance
if ahead > 0 then return math.ceil(ahead) end
tat = tat + interval
redis.call('HSET', KEYS[1], 'tat', string.format('%.3f', tat))
redis.call('PEXPIRE', KEYS[1], math.ceil(tat - now) + 60000)
return -1
`;
const SCRIPT_SHA = createHash('sha1').update(SCRIPT).digest('hex');

/** A rate budget shared by every process using the same Redis and bucket. */
export class RedisRateLimiter extends QueuedRateLimiter {
  private readonly redis: Redis;
  private readonly key: string;
  private readonly budget: RateBudget;
  private readonly serverTime: boolean;

  constructor(options: RedisRateLimiterOptions) {
    super(options.clock ?? new SystemClock());
    this.redis = options.redis;
    this.key = `${options.prefix ?? 'catalog-client:rate:'}${options.bucket}`;
    this.serverTime = (options.timeSource ?? 'server') === 'server';
    this.budget = checkBudget({
      ratePerSecond: options.ratePerSecond ?? DEFAULT_RATE_BUDGET.ratePerSecond,
      burst: options.burst ?? DEFAULT_RATE_BUDGET.burst,
    });
  }

  async take(now: number): Promise<TakeResult> {
    const answer = await this.run(now, 'take', 0);
    return answer < 0 ? { granted: true } : { granted: false, waitMs: answer };
  }

  async storePause(now: number, ms: number): Promise<void> {
    await this.run(now, 'pause', ms);
  }

  private async run(now: number, op: 'take' | 'pause', pauseMs: number): Promise<number> {
    const args = [
      this.serverTime ? -1 : now,
      intervalMs(this.budget),
      toleranceMs(this.budget),
      op,
      Math.ceil(pauseMs),
    ].map(String);
    let answer: unknown;
    try {
      answer = await this.redis.evalsha(SCRIPT_SHA, 1, this.key, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.includes('NOSCRIPT')) throw error;
      answer = await this.redis.eval(SCRIPT, 1, this.key, ...args);
    }
    return Number(answer);
  }
}
