import { describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { Secret } from '../../platform/config/secret.js';
import { AdminSession } from './admin-session.service.js';

const TOKEN = 'admin-token-0123456789';
const sessions = (token: string | null, clock = new ManualClock(Date.UTC(2026, 10, 23))) =>
  new AdminSession(
    {
      token: token === null ? null : new Secret(token),
      uiSessionTtlMs: 60_000,
      authFailureLimit: 10,
      authFailureWindowMs: 60_000,
    },
    clock,
  );

describe('AdminSession', () => {
  it('opens sessions that verify, with a CSRF token of their own, never containing the admin token', () => {
    const store = sessions(TOKEN);
    const session = store.open();
    expect(session.value).not.toContain(TOKEN);
    expect(store.verify(session.value)).toEqual(session);
    expect(store.csrfMatches(session, session.csrf)).toBe(true);
    expect(store.csrfMatches(session, store.open().csrf)).toBe(false);
    expect(store.csrfMatches(session, undefined)).toBe(false);
  });

  it('refuses forged, tampered, expired or other-token sessions', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 23));
    const store = sessions(TOKEN, clock);
    const { value } = store.open();
    const [expiry, nonce, mac] = value.split('.') as [string, string, string];
    expect(store.verify(`${Number(expiry) + 1_000_000}.${nonce}.${mac}`)).toBeNull();
    // A tampered MAC: its first character changed (the last one of a base64url HMAC carries padding
    // bits, and was 'A' already one time in 64).
    const tampered = `${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`;
    expect(store.verify(`${expiry}.${nonce}.${tampered}`)).toBeNull();
    expect(store.verify('garbage')).toBeNull();
    expect(store.verify(undefined)).toBeNull();
    expect(sessions('another-admin-token-000').verify(value)).toBeNull();
    await clock.advance(60_001);
    expect(store.verify(value)).toBeNull();
  });

  it('checks the token in constant time, and is closed without one', () => {
    expect(sessions(TOKEN).tokenMatches(TOKEN)).toBe(true);
    expect(sessions(TOKEN).tokenMatches(`${TOKEN}x`)).toBe(false);
    const closed = sessions(null);
    expect(closed.enabled).toBe(false);
    expect(closed.tokenMatches('')).toBe(false);
    expect(closed.verify('1.abcdefghijk.x')).toBeNull();
  });
});
