import { describe, expect, it } from 'vitest';
import { Secret } from '../../platform/config/secret.js';
import type { AdminSettings } from '../../platform/config/settings.js';
import type { ConnectorError } from '../../platform/http/connector.error.js';
import type { ConnectorRequest } from '../../platform/http/request-id.js';
import { AdminTokenGuard } from './admin-token.guard.js';

const TOKEN = 'admin-token-0123456789';
const guardWith = (token: string | null) =>
  new AdminTokenGuard({ token: token === null ? null : new Secret(token) } as AdminSettings);
const request = (authorization?: string) =>
  ({ header: (name: string) => (name === 'authorization' ? authorization : undefined) }) as ConnectorRequest;
const refusal = (guard: AdminTokenGuard, authorization?: string): ConnectorError | null => {
  try {
    guard.verify(request(authorization));
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
});
