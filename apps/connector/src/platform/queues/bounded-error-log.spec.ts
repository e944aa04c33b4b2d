import { describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { BoundedErrorLog, QUIET_MS } from './bounded-error-log.js';

describe('BoundedErrorLog', () => {
  it('writes one line per source, then one per quiet period with the count kept quiet', async () => {
    const clock = new ManualClock();
    const lines: string[] = [];
    const log = new BoundedErrorLog(clock, (line) => lines.push(line));
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' });
    const redis = log.listener('queue sync-product');
    for (let i = 0; i < 20; i++) redis(refused);
    log.report('Rate limiter Redis', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    expect(lines).toEqual([
      'queue sync-product: connect ECONNREFUSED 127.0.0.1:6379',
      'Rate limiter Redis: write EPIPE',
    ]);
    await clock.advance(QUIET_MS);
    redis(refused);
    expect(lines.at(-1)).toBe('queue sync-product: connect ECONNREFUSED 127.0.0.1:6379 (19 more since)');
    log.report('worker x', Object.assign(new Error('Connection is closed.'), { code: 'ECLOSED' }));
    expect(lines.at(-1)).toBe('worker x: ECLOSED Connection is closed.');
    log.stop();
    await clock.advance(QUIET_MS);
    redis(refused);
    expect(lines).toHaveLength(4);
  });
});
