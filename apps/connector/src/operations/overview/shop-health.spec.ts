import { describe, expect, it } from 'vitest';
import { minutes, type ShopHealthFacts, shopHealth } from './shop-health.js';

const fine: ShopHealthFacts = {
  authState: 'active',
  authReason: null,
  operatorPause: null,
  mappingProblem: null,
  catalogKeyProblem: null,
  backlog: 0,
  backlogAgeSeconds: null,
  backlogFailingSeconds: 300,
  breaker: 'closed',
  pollLagSeconds: 30,
  pollIntervalSeconds: 60,
  openFailures: {},
};

describe('shopHealth', () => {
  it('is healthy when no rule applies', () => {
    expect(shopHealth(fine)).toEqual({ state: 'healthy', reasons: ['everything gets through'] });
  });

  it.each([
    [{ authState: 'needs_reauth', authReason: 'token revoked' }, /authorised again \(token revoked\)/],
    [{ authState: 'uninstalled' }, /the app is uninstalled/],
    [{ operatorPause: 'maintenance' }, /paused by an operator \(maintenance\)/],
    [{ mappingProblem: 'unknown field' }, /mapping is invalid \(unknown field\)/],
    [
      { catalogKeyProblem: 'its catalog API key cannot be read: it was encrypted with key 0a1b2c3d' },
      /its catalog API key cannot be read: it was encrypted with key 0a1b2c3d \(set it again\)/,
    ],
    [{ backlog: 3, backlogAgeSeconds: 301 }, /3 deliveries wait for their sync, the oldest for 5 min/],
  ])('is failing on %o', (change, reason) => {
    const health = shopHealth({ ...fine, ...change });
    expect(health.state).toBe('failing');
    expect(health.reasons.join('; ')).toMatch(reason);
  });

  it('is not failing for a backlog of its threshold or less', () => {
    expect(shopHealth({ ...fine, backlog: 9, backlogAgeSeconds: 300 }).state).toBe('healthy');
    expect(shopHealth({ ...fine, backlog: 1, backlogAgeSeconds: 3, backlogFailingSeconds: 2 }).state).toBe(
      'failing',
    );
  });

  it.each([
    [{ breaker: 'open' }, /catalog breaker is open/],
    [{ pollLagSeconds: 121 }, /enrichment poll lags 2 min \(more than twice its 60 s interval\)/],
    [{ openFailures: { 'sync-product': 2, 'write-back': 0 } }, /^open failures: 2 sync-product$/],
  ])('is degraded on %o', (change, reason) => {
    const health = shopHealth({ ...fine, ...change });
    expect(health.state).toBe('degraded');
    expect(health.reasons.join('; ')).toMatch(reason);
  });

  it('is not degraded at exactly twice the poll interval, nor before the first poll', () => {
    expect(shopHealth({ ...fine, pollLagSeconds: 120 }).state).toBe('healthy');
    expect(shopHealth({ ...fine, pollLagSeconds: null }).state).toBe('healthy');
  });

  it('lists failing reasons before degraded ones', () => {
    const health = shopHealth({ ...fine, operatorPause: 'x', openFailures: { 'sync-product': 1 } });
    expect(health.state).toBe('failing');
    expect(health.reasons).toEqual(['syncing is paused by an operator (x)', 'open failures: 1 sync-product']);
  });

  it('says durations in words', () => {
    expect([minutes(5), minutes(600), minutes(36_000)]).toEqual(['5 s', '10 min', '10 h']);
  });
});
