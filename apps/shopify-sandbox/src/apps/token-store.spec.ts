import { describe, expect, it } from 'vitest';
import { LIFETIMES_S, TokenStore } from './token-store.js';

const SHOP = 'demo.myshopify.com';
const APP = 'app-1';
const DAY = 24 * 3_600_000;

describe('TokenStore', () => {
  it('lets an access token live its lifetime, and a non-expiring one forever, until revoked', () => {
    const store = new TokenStore();
    const expiring = store.issueAccess(SHOP, APP, 'client-credentials', ['read_products'], 0, 86_399);
    const offline = store.issueAccess(SHOP, APP, 'offline', ['read_products'], 0, null);
    expect(store.resolve(expiring, 86_398_999)).toMatchObject({ shop: SHOP, clientId: APP });
    expect(store.resolve(expiring, 86_399_000)).toBeUndefined();
    expect(store.resolve(offline, 1_000 * DAY)).toBeDefined();
    expect(store.resolve('shpat_unknown', 0)).toBeUndefined();
    store.revokeAll(SHOP, APP);
    expect(store.resolve(offline, 0)).toBeUndefined();
  });

  it('returns the same non-expiring offline token when the app is authorized again', () => {
    const store = new TokenStore();
    const first = store.issueAccess(SHOP, APP, 'offline', [], 0, null);
    expect(store.issueAccess(SHOP, APP, 'offline', [], 5, null)).toBe(first);
    store.revokeAll(SHOP, APP);
    expect(store.issueAccess(SHOP, APP, 'offline', [], 10, null)).not.toBe(first);
  });

  it('keeps a used refresh token usable until its replacement is used', () => {
    const store = new TokenStore();
    const first = store.issueRefresh(SHOP, APP, ['read_products'], 0, null);
    expect(store.useRefresh(first, SHOP, APP, 1_000)).toEqual({ scopes: ['read_products'] });
    const second = store.issueRefresh(SHOP, APP, ['read_products'], 1_000, first);
    // The response was lost: the app retries the first one, days later.
    expect(store.useRefresh(first, SHOP, APP, 3 * DAY)).toEqual({ scopes: ['read_products'] });
    const third = store.issueRefresh(SHOP, APP, ['read_products'], 3 * DAY, first);
    expect(store.useRefresh(third, SHOP, APP, 3 * DAY + 1)).toEqual({ scopes: ['read_products'] });
    expect(store.useRefresh(first, SHOP, APP, 3 * DAY + 2)).toEqual({ refused: 'retired' });
    // The second one was never used; its own lifetime is untouched.
    expect(store.useRefresh(second, SHOP, APP, 4 * DAY)).toEqual({ scopes: ['read_products'] });
  });

  it('ends the recovery 30 days after the first use, and never past the 90 days', () => {
    const store = new TokenStore();
    const retried = store.issueRefresh(SHOP, APP, [], 0, null);
    expect(store.useRefresh(retried, SHOP, APP, 0)).toEqual({ scopes: [] });
    expect(store.useRefresh(retried, SHOP, APP, 30 * DAY - 1)).toEqual({ scopes: [] });
    expect(store.useRefresh(retried, SHOP, APP, 30 * DAY)).toEqual({ refused: 'expired' });
    const late = store.issueRefresh(SHOP, APP, [], 0, null);
    expect(store.useRefresh(late, SHOP, APP, 80 * DAY)).toEqual({ scopes: [] });
    expect(store.useRefresh(late, SHOP, APP, 90 * DAY)).toEqual({ refused: 'expired' });
    expect(LIFETIMES_S.refreshToken).toBe(90 * 24 * 3_600);
  });

  it('refuses a refresh token of another shop or app, or an unknown one', () => {
    const store = new TokenStore();
    const token = store.issueRefresh(SHOP, APP, [], 0, null);
    expect(store.useRefresh(token, 'other.myshopify.com', APP, 1)).toEqual({ refused: 'unknown' });
    expect(store.useRefresh(token, SHOP, 'app-2', 1)).toEqual({ refused: 'unknown' });
    expect(store.useRefresh('shprt_nope', SHOP, APP, 1)).toEqual({ refused: 'unknown' });
  });

  it('takes an authorization code once, within 10 minutes, for its shop and app only', () => {
    const store = new TokenStore();
    const code = store.issueCode(SHOP, APP, ['read_products'], 'https://app.example/cb', 0);
    expect(store.takeCode(code, SHOP, 'app-2', 1)).toBeUndefined();
    expect(store.takeCode(code, SHOP, APP, 1)).toEqual({ scopes: ['read_products'] });
    expect(store.takeCode(code, SHOP, APP, 2)).toBeUndefined();
    const old = store.issueCode(SHOP, APP, [], 'https://app.example/cb', 0);
    expect(store.takeCode(old, SHOP, APP, 600_000)).toBeUndefined();
  });

  describe('migration of a non-expiring offline token', () => {
    const HOUR = 3_600_000;
    /** A legacy token migrated at `at` to a pair of 3600 s, as the token exchange grant does it. */
    const migrated = (store: TokenStore, at: number) => {
      const original = store.issueAccess(SHOP, APP, 'offline', ['read_products'], 0, null);
      const access = store.issueAccess(SHOP, APP, 'expiring-offline', ['read_products'], at, 3_600);
      const refresh = store.issueRefresh(SHOP, APP, ['read_products'], at, null);
      store.recordMigration(original, access, refresh, at);
      return { original, access, refresh };
    };

    it('takes only a live non-expiring offline token of the same shop and app as its subject', () => {
      const store = new TokenStore();
      const legacy = store.issueAccess(SHOP, APP, 'offline', [], 0, null);
      const expiring = store.issueAccess(SHOP, APP, 'expiring-offline', [], 0, 3_600);
      const credentials = store.issueAccess(SHOP, APP, 'client-credentials', [], 0, 86_399);
      expect(store.nonExpiring(legacy, SHOP, APP, 1)).toMatchObject({ kind: 'offline', expiresAt: null });
      expect(store.nonExpiring(legacy, SHOP, 'app-2', 1)).toBeUndefined();
      expect(store.nonExpiring(legacy, 'other.myshopify.com', APP, 1)).toBeUndefined();
      expect(store.nonExpiring(expiring, SHOP, APP, 1)).toBeUndefined();
      expect(store.nonExpiring(credentials, SHOP, APP, 1)).toBeUndefined();
      expect(store.nonExpiring('shpat_unknown', SHOP, APP, 1)).toBeUndefined();
    });

    it('revokes the original and returns the same pair on a retry, the access token extended, the refresh token not', () => {
      const store = new TokenStore();
      const { original, access, refresh } = migrated(store, 0);
      expect(store.resolve(original, 1)).toBeUndefined();
      expect(store.nonExpiring(original, SHOP, APP, 1)).toBeUndefined();
      // Two hours later the access token has expired; the retry brings it back for an hour.
      expect(store.resolve(access, 2 * HOUR)).toBeUndefined();
      expect(store.recoverMigration(original, SHOP, APP, 2 * HOUR, 3_600)).toEqual({
        access,
        refresh,
        scopes: ['read_products'],
        expiresInS: 3_600,
        refreshExpiresInS: 90 * 24 * 3_600 - 2 * 3_600,
      });
      expect(store.resolve(access, 3 * HOUR - 1)).toBeDefined();
      expect(store.resolve(access, 3 * HOUR)).toBeUndefined();
    });

    it('refuses a retry 7 days after the first exchange, or for another shop or app', () => {
      const store = new TokenStore();
      const { original } = migrated(store, 0);
      expect(store.recoverMigration(original, SHOP, 'app-2', 1, 3_600)).toBeUndefined();
      expect(store.recoverMigration(original, 'other.myshopify.com', APP, 1, 3_600)).toBeUndefined();
      expect(store.recoverMigration(original, SHOP, APP, 7 * DAY - 1, 3_600)).toBeDefined();
      expect(store.recoverMigration(original, SHOP, APP, 7 * DAY, 3_600)).toBeUndefined();
      expect(LIFETIMES_S.migrationRecovery).toBe(7 * 24 * 3_600);
    });

    it('ends the recovery once the pair is refreshed', () => {
      const store = new TokenStore();
      const { original, refresh } = migrated(store, 0);
      expect(store.useRefresh(refresh, SHOP, APP, HOUR)).toEqual({ scopes: ['read_products'] });
      expect(store.recoverMigration(original, SHOP, APP, HOUR + 1, 3_600)).toBeUndefined();
    });

    it('ends the recovery when a later offline token replaces the pair, not for a client credentials token', () => {
      for (const kind of ['offline', 'expiring-offline'] as const) {
        const store = new TokenStore();
        const { original } = migrated(store, 0);
        store.issueAccess(SHOP, 'app-2', kind, [], 1, kind === 'offline' ? null : 3_600);
        store.issueAccess(SHOP, APP, 'client-credentials', [], 1, 86_399);
        expect(store.recoverMigration(original, SHOP, APP, 2, 3_600)).toBeDefined();
        store.issueAccess(SHOP, APP, kind, [], 3, kind === 'offline' ? null : 3_600);
        expect(store.recoverMigration(original, SHOP, APP, 4, 3_600)).toBeUndefined();
      }
    });

    it('ends the recovery on an uninstall', () => {
      const store = new TokenStore();
      const { original, access } = migrated(store, 0);
      store.revokeAll(SHOP, APP);
      expect(store.resolve(access, 1)).toBeUndefined();
      expect(store.recoverMigration(original, SHOP, APP, 1, 3_600)).toBeUndefined();
    });
  });
});
