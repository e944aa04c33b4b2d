import { describe, expect, it } from 'vitest';
import { renewalMargin, renewalTime } from './renewal-times.js';

const settings = { tokenRefreshMarginMs: 300_000, tokenRefreshJitterMs: 60_000 };
const DAY = 86_400_000;

describe('renewal times', () => {
  it('renews a 24-hour token 5 minutes plus up to 1 minute before it expires', () => {
    expect(renewalTime(settings, 0, DAY, () => 0)).toBe(DAY - 300_000);
    expect(renewalTime(settings, 0, DAY, () => 1)).toBe(DAY - 360_000);
  });

  it('scales down for short tokens: a fifth of the life, jitter at most a tenth', () => {
    expect(renewalMargin(settings, 0, 5_000)).toBe(1_000);
    expect(renewalTime(settings, 0, 5_000, () => 0)).toBe(4_000);
    expect(renewalTime(settings, 0, 5_000, () => 1)).toBe(3_500);
  });

  it('never renews a token that does not expire', () => {
    expect(renewalTime(settings, 0, null, () => 0.5)).toBeNull();
  });
});
