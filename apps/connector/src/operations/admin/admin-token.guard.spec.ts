import { describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { INSIDE_NETWORKS } from '../../platform/config/listener-config.js';
import { Secret } from '../../platform/config/secret.js';
import type { AdminSettings, HttpSettings } from '../../platform/config/settings.js';
import { AuthFailureLimit } from '../../platform/http/auth-failure-limit.service.js';
import type { ConnectorError } from '../../platform/http/connector.error.js';
import type { ConnectorRequest } from '../../platform/http/request-id.js';
import { AdminTokenGuard } from './admin-token.guard.js';

const TOKEN = 'admin-token-0123456789';
const guardWith = (token: string | null, clock = new ManualClock(1_000_000), limit = 1_000) => {
  const settings = {
    token: token === null ? null : new Secret(token),
    authFailureLimit: limit,
    authFailureWindowMs: 60_000,
  } as AdminSettings;
  const http = { trustedNetworks: [...INSIDE_NETWORKS] } as HttpSettings;
  return new AdminTokenGuard(settings, new AuthFailureLimit(settings, http, clock));
};
const request = (authorization?: string, remoteAddress = '203.0.113.9') =>
  ({
    header: (name: string) => (name === 'authorization' ? authorization : undefined),
    headers: {},
    socket: { remoteAddress },
    url: '/admin/failures?state=open',
  }) as unknown as ConnectorRequest;
const refusal = (guard: AdminTokenGuard, authorization?: string, from?: string): ConnectorError | null => {
  try {
    guard.verify(request(authorization, from));
    return null;
  } catch (error) {
    return error as ConnectorError;
  }
};

describe('AdminTokenGuard', () => {
  it('lets the exact bearer token through (scheme in any case)', () => {
    const guard = guardWith(TOKEN);
    expect(refusal(guard, `Bearer ${TOKEN}`)).toBeNull();
    expect(refusal(guard, `bearer ${TOKEN}`)).toBeNull();
  });

  it('refuses a missing, malformed or wrong token with 401, never echoing it', () => {
    const guard = guardWith(TOKEN);
    for (const header of [
      undefined,
      '',
      TOKEN,
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(1)}`,
      'Bearer',
    ]) {
      const error = refusal(guard, header);
      expect(error?.status, String(header)).toBe(401);
      expect(error?.code).toBe('unauthorized');
      expect(error?.headers['WWW-Authenticate']).toMatch(/^Bearer /);
      expect(error?.message).not.toContain(TOKEN.slice(1));
    }
  });

  it('keeps the admin API closed without a configured token', () => {
    const guard = guardWith(null);
    for (const header of [undefined, 'Bearer anything', 'Bearer ']) {
      expect(refusal(guard, header)).toMatchObject({ code: 'admin_disabled', status: 503 });
    }
  });

  it('answers 429 with Retry-After once an address used up its failures, the right token too, until they leave the window', () => {
    const clock = new ManualClock(1_000_000);
    const guard = guardWith(TOKEN, clock, 3);
    expect(refusal(guard, undefined)?.status).toBe(401); // no header: no guess, not counted
    for (let i = 0; i < 3; i += 1) {
      expect(refusal(guard, 'Bearer wrong-token-guess')?.status).toBe(401);
      clock.set(clock.now() + 10_000);
    }
    const limited = refusal(guard, `Bearer ${TOKEN}`);
    expect(limited).toMatchObject({ status: 429, code: 'too_many_attempts' });
    // The first failure leaves the window at 1_060_000; now is 1_030_000.
    expect(limited?.headers['Retry-After']).toBe('30');
    expect(refusal(guard, `Bearer ${TOKEN}`, '198.51.100.4')).toBeNull(); // another address
    clock.set(1_060_001);
    expect(refusal(guard, `Bearer ${TOKEN}`)).toBeNull();
    expect(refusal(guard, 'Bearer wrong-token-guess')?.status).toBe(401);
    expect(refusal(guard, 'Bearer wrong-token-guess')?.status).toBe(429);
  });
});
