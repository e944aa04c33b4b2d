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
});
