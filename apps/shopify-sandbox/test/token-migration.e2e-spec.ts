import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';
import { adminStatus, INVALID_TOKEN, tokenRequest } from './oauth-client.js';

const CLIENT_ID = 'sandbox-app-client-id';
const OFFLINE_TOKEN_TYPE = 'urn:shopify:params:oauth:token-type:offline-access-token';

// Migrating a non-expiring offline token to an expiring one over HTTP, with the request
// `@shopify/shopify-api`'s `auth.migrateToExpiringToken` sends (README, "Apps and tokens").
describe('token exchange: migration to an expiring offline token', () => {
  let h: ShopifySandboxHarness;
  afterEach(() => h.close());

  const migrate = (subject: string, secret = h.appSecret) =>
    tokenRequest(h, {
      client_id: CLIENT_ID,
      client_secret: secret,
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token: subject,
      subject_token_type: OFFLINE_TOKEN_TYPE,
      requested_token_type: OFFLINE_TOKEN_TYPE,
      expiring: '1',
    });
  const legacyToken = async () => {
    const answer = await h.control('POST', `shops/${h.shopDomain}/legacy-token`, { clientId: CLIENT_ID });
    expect(answer.status).toBe(200);
    return answer.body;
  };

  it('migrates a legacy token: the pair works, the legacy token gets 401, a retry gets the same pair until a refresh', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 1));
    h = await startShopifySandbox({ clock });
    const legacy = await legacyToken();
    expect(legacy).toEqual({
      clientId: CLIENT_ID,
      accessToken: expect.stringMatching(/^shpat_/),
      scope: 'read_products,write_products,read_inventory,write_inventory',
    });
    // The same token each time, as a new authorization without expiring=1 gives it.
    expect((await legacyToken()).accessToken).toBe(legacy.accessToken);
    const original = legacy.accessToken as string;
    expect(await adminStatus(h, original)).toBe(200);

    const exchanged = await migrate(original);
    expect(exchanged.status).toBe(200);
    expect(exchanged.body).toEqual({
      access_token: expect.stringMatching(/^shpat_/),
      scope: 'read_products,write_products,read_inventory,write_inventory',
      expires_in: 3_600,
      refresh_token: expect.stringMatching(/^shprt_/),
      refresh_token_expires_in: 7_776_000,
    });
    const pair = exchanged.body;
    expect(await adminStatus(h, pair.access_token as string)).toBe(200);
    const revoked = await fetch(`${h.adminUrl}/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': original },
      body: JSON.stringify({ query: '{ shop { name } }' }),
    });
    expect(revoked.status).toBe(401);
    expect(await revoked.json()).toEqual(INVALID_TOKEN);

    // The answer was lost; the app retries two hours later, when the access token has expired.
    await clock.advance(2 * 3_600_000);
    expect(await adminStatus(h, pair.access_token as string)).toBe(401);
    const retried = await migrate(original);
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual({ ...pair, refresh_token_expires_in: 7_776_000 - 7_200 });
    expect(await adminStatus(h, pair.access_token as string)).toBe(200);
    expect(await adminStatus(h, original)).toBe(401);

    // The app refreshes the pair: recovery ends, a retry is refused.
    const refreshed = await tokenRequest(
      h,
      {
        client_id: CLIENT_ID,
        client_secret: h.appSecret,
        grant_type: 'refresh_token',
        refresh_token: pair.refresh_token as string,
      },
      'form',
    );
    expect(refreshed.status).toBe(200);
    expect(await adminStatus(h, refreshed.body.access_token as string)).toBe(200);
    const late = await migrate(original);
    expect(late.status).toBe(400);
    expect(late.body).toEqual({
      error: 'invalid_subject_token',
      error_description: 'Token exchange cannot be performed due to an invalid subject token.',
    });
  });

  it('refuses a wrong secret and an unknown subject token; the legacy token keeps working', async () => {
    h = await startShopifySandbox();
    const original = (await legacyToken()).accessToken as string;
    const wrong = await migrate(original, 'nope');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
    const unknown = await migrate('shpat_unknown');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: 'invalid_subject_token' });
    // The seeded shop's static token is not one the sandbox issued: not migrated.
    expect((await migrate(h.accessToken)).body).toMatchObject({ error: 'invalid_subject_token' });
    expect(await adminStatus(h, original)).toBe(200);
    const idToken = await tokenRequest(h, {
      client_id: CLIENT_ID,
      client_secret: h.appSecret,
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token: 'eyJ.session.token',
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      requested_token_type: OFFLINE_TOKEN_TYPE,
    });
    expect(idToken.status).toBe(400);
    expect(idToken.body).toMatchObject({ error: 'invalid_request' });
  });

  it('gives a legacy token only for a known app installed on the shop', async () => {
    h = await startShopifySandbox();
    const unknown = await h.control('POST', `shops/${h.shopDomain}/legacy-token`, { clientId: 'nope' });
    expect(unknown).toMatchObject({ status: 404, body: { errors: 'Unknown app nope' } });
    await h.control('POST', `shops/${h.shopDomain}/uninstall`, {});
    const uninstalled = await h.control('POST', `shops/${h.shopDomain}/legacy-token`, {});
    expect(uninstalled.status).toBe(409);
    const noShop = await h.control('POST', 'shops/nope.myshopify.com/legacy-token', {});
    expect(noShop.status).toBe(404);
  });
});
