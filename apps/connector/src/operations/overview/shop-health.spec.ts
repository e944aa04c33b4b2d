import { describe, expect, it } from 'vitest';
import { type CatalogEvidence, minutes, type ShopHealthFacts, shopHealth } from './shop-health.js';

const fine: ShopHealthFacts = {
  authState: 'active',
  authReason: null,
  operatorPause: null,
  mappingProblem: null,
  catalogKeyProblem: null,
  backlog: 0,
  backlogAgeSeconds: null,
  backlogFailingSeconds: 300,
  heldByFailures: 0,
  breaker: 'closed',
  catalog: null,
  pollLagSeconds: 30,
  pollIntervalSeconds: 60,
  openFailures: {},
  openFailureCodes: {},
  platform: { queueProblem: null, queueStateLostSecondsAgo: null },
};

const calls = (evidence: Partial<CatalogEvidence>): { catalog: CatalogEvidence } => ({
  catalog: {
    windowMinutes: 5,
    writes: 0,
    serverErrors: {},
    unanswered: 0,
    calls: 0,
    rateLimited: 0,
    ...evidence,
  },
});

describe('shopHealth', () => {
  it('is healthy when no rule applies, with no cause', () => {
    expect(shopHealth(fine)).toEqual({ state: 'healthy', reasons: ['everything gets through'], causes: [] });
  });

  it.each([
    [
      { authState: 'needs_reauth', authReason: 'token revoked' },
      'shopify_token_refused',
      /authorised again \(token revoked\)/,
    ],
    [{ authState: 'uninstalled' }, 'app_uninstalled', /the app is uninstalled/],
    [{ operatorPause: 'maintenance' }, 'operator_pause', /paused by an operator \(maintenance\)/],
    [{ mappingProblem: 'unknown field' }, 'mapping_invalid', /mapping is invalid \(unknown field\)/],
    [
      { catalogKeyProblem: 'its catalog API key cannot be read: it was encrypted with key 0a1b2c3d' },
      'catalog_key_unusable',
      /its catalog API key cannot be read: it was encrypted with key 0a1b2c3d \(set it again\)/,
    ],
    [
      { backlog: 3, backlogAgeSeconds: 301 },
      'sync_backlog',
      /3 deliveries wait for their sync, the oldest for 5 min/,
    ],
    [
      calls({ writes: 8, serverErrors: { '500': 8 }, calls: 12 }),
      'catalog_server_errors',
      /^the catalog answers 500 to 100% of product writes \(8 of 8 in the last 5 min\)$/,
    ],
    [
      calls({ writes: 4, serverErrors: { '500': 1, '503': 1 }, calls: 4 }),
      'catalog_server_errors',
      /^the catalog answers 500 or 503 to 50% of product writes \(2 of 4 in the last 5 min\)$/,
    ],
    [
      calls({ writes: 5, unanswered: 5, calls: 5 }),
      'catalog_unreachable',
      /^the catalog does not answer 100% of product writes \(5 of 5 in the last 5 min: time-out or connection refused\)$/,
    ],
    [
      { platform: { queueProblem: 'connect ECONNREFUSED 127.0.0.1:6379', queueStateLostSecondsAgo: null } },
      'queue_unavailable',
      /^the job queue does not answer \(connect ECONNREFUSED 127\.0\.0\.1:6379\): deliveries are kept, nothing is synced$/,
    ],
    [
      { platform: { queueProblem: 'sorry, too many clients already', queueStateLostSecondsAgo: null } },
      'queue_out_of_connections',
      /^the job queue's PostgreSQL has no connection left \(sorry, too many clients already\)/,
    ],
  ])('is failing on %o, cause %s', (change, code, reason) => {
    const health = shopHealth({ ...fine, ...change });
    expect(health.state).toBe('failing');
    expect(health.causes[0]).toMatchObject({ code, severity: 'failing' });
    expect(health.reasons[0]).toMatch(reason);
  });

  it('is not failing for a backlog of its threshold or less', () => {
    expect(shopHealth({ ...fine, backlog: 9, backlogAgeSeconds: 300 }).state).toBe('healthy');
    expect(shopHealth({ ...fine, backlog: 1, backlogAgeSeconds: 3, backlogFailingSeconds: 2 })).toMatchObject(
      {
        state: 'failing',
        reasons: ['1 delivery waits for its sync, for 3 s'],
      },
    );
  });

  it("counts only work waiting as a backlog: deliveries held by a failure are the failure's reason", () => {
    const health = shopHealth({
      ...fine,
      backlog: 0,
      backlogAgeSeconds: null,
      heldByFailures: 4,
      openFailures: { 'sync-product': 4 },
      openFailureCodes: { create_outcome_unknown: 3, internal_error: 1 },
    });
    expect(health.state).toBe('degraded');
    expect(health.causes).toEqual([
      {
        code: 'catalog_create_unknown',
        severity: 'degraded',
        text: expect.stringMatching(
          /^open failures: 4 sync-product: a create in the catalog may have happened without an answer.*; the catalog answers with server errors \(5xx\); 4 deliveries held until replayed$/,
        ),
      },
    ]);
  });

  it.each([
    [{ breaker: 'open' }, 'catalog_breaker_open', /^the catalog breaker is open$/],
    [
      { pollLagSeconds: 121 },
      'poll_lag',
      /^no enrichment poll has finished its work for 2 min \(more than twice its 60 s interval\)$/,
    ],
    [
      { openFailures: { 'sync-product': 2, 'write-back': 0 }, openFailureCodes: { shopify_unauthorized: 2 } },
      'shopify_token_refused',
      /^open failures: 2 sync-product: Shopify refuses the shop's token \(401\)$/,
    ],
    [
      { openFailures: { 'sync-product': 1 }, openFailureCodes: { some_new_code: 1 } },
      'open_failures',
      /^open failures: 1 sync-product: some_new_code$/,
    ],
    [
      calls({ writes: 10, serverErrors: { '502': 2 }, calls: 10 }),
      'catalog_server_errors',
      /^the catalog answers 502 to 20% of product writes \(2 of 10 in the last 5 min\)$/,
    ],
    [
      calls({ calls: 20, rateLimited: 5 }),
      'catalog_rate_limited',
      /^the catalog answers 429 \(too many requests\) to 25% of calls \(5 of 20 in the last 5 min\)$/,
    ],
    [
      { platform: { queueProblem: null, queueStateLostSecondsAgo: 240 } },
      'queue_state_lost',
      /^the job queue lost its state 4 min ago and was repaired/,
    ],
  ])('is degraded on %o, cause %s', (change, code, reason) => {
    const health = shopHealth({ ...fine, ...change });
    expect(health.state).toBe('degraded');
    expect(health.causes).toEqual([{ code, severity: 'degraded', text: expect.stringMatching(reason) }]);
  });

  it('measures the poll lag from the last poll that finished: a quiet shop polled on time is healthy', () => {
    // Nothing enriched for hours: the polls still finish every minute.
    expect(shopHealth({ ...fine, pollLagSeconds: 45 }).state).toBe('healthy');
    expect(shopHealth({ ...fine, pollLagSeconds: 120 }).state).toBe('healthy');
    expect(shopHealth({ ...fine, pollLagSeconds: null }).state).toBe('healthy');
  });

  it('is never worse than the evidence: few writes, a few 5xx or 429s, an old queue loss', () => {
    for (const change of [
      calls({ writes: 2, serverErrors: { '500': 2 }, calls: 2 }),
      calls({ writes: 20, serverErrors: { '500': 1 }, calls: 20 }),
      calls({ calls: 40, rateLimited: 3 }),
      calls({ calls: 2, rateLimited: 2 }),
      { platform: { queueProblem: null, queueStateLostSecondsAgo: 15 * 60 + 1 } },
    ]) {
      expect(shopHealth({ ...fine, ...change }).state, JSON.stringify(change)).toBe('healthy');
    }
  });

  it('lists failing causes before degraded ones, the worst first', () => {
    const health = shopHealth({
      ...fine,
      ...calls({ writes: 6, serverErrors: { '500': 6 }, calls: 6 }),
      backlog: 4,
      backlogAgeSeconds: 400,
      breaker: 'open',
      operatorPause: 'x',
      openFailures: { 'sync-product': 1 },
      openFailureCodes: { circuit_open: 1 },
    });
    expect(health.state).toBe('failing');
    expect(health.causes.map((c) => `${c.severity} ${c.code}`)).toEqual([
      'failing operator_pause',
      'failing catalog_server_errors',
      'failing sync_backlog',
      'degraded catalog_breaker_open',
      'degraded catalog_breaker_open',
    ]);
    expect(health.reasons).toEqual(health.causes.map((c) => c.text));
  });

  it('says durations in words', () => {
    expect([minutes(5), minutes(600), minutes(36_000)]).toEqual(['5 s', '10 min', '10 h']);
  });
});
