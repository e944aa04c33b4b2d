import { type GraphqlClient, HttpResponseError } from '@shopify/shopify-api';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { ShopAuthError, ShopAuthErrorCode } from '../../shops/shop-auth.error.js';
import { ShopAdminClient, type ShopGraphqlSource } from './shop-admin.client.js';
import { ShopifyErrorCode } from './shopify-admin.error.js';

const unauthorized = () =>
  new HttpResponseError({
    message: '401',
    code: 401,
    statusText: 'Unauthorized',
    body: { errors: 'Invalid' },
  });

/** Tokens `t1`, `t2`, ...: a renewal moves to the next; Shopify accepts only those in `accepted`. */
function source(accepted: string[], canRenew = true) {
  let current = 1;
  const renewals: string[] = [];
  const seen: string[] = [];
  const value: ShopGraphqlSource = {
    client: async () => {
      const token = `t${current}`;
      const graphql = {
        request: async () => {
          seen.push(token);
          if (!accepted.includes(token)) throw unauthorized();
          return { data: { shop: { name: 'x' } }, extensions: {} };
        },
      } as unknown as GraphqlClient;
      return { graphql, token };
    },
    renewAfterUnauthorized: async (token) => {
      renewals.push(token);
      if (!canRenew) return false;
      current += 1;
      return true;
    },
  };
  return { value, renewals, seen };
}

describe('ShopAdminClient and the token', () => {
  it('renews the token once after a 401 and runs the call again', async () => {
    const s = source(['t2']);
    const client = new ShopAdminClient('a.myshopify.com', s.value, new ManualClock(), 0);
    expect(await client.request('{ shop { name } }', {}, 1)).toEqual({ shop: { name: 'x' } });
    expect(s.renewals).toEqual(['t1']);
    expect(s.seen).toEqual(['t1', 't2']);
    expect(await client.raw('{ shop { name } }', {})).toMatchObject({ data: { shop: { name: 'x' } } });
  });

  it('gives up after one renewal: a second 401 is the unauthorized error', async () => {
    const s = source([]);
    const client = new ShopAdminClient('a.myshopify.com', s.value, new ManualClock(), 0);
    await expect(client.request('{ shop { name } }', {}, 1)).rejects.toMatchObject({
      code: ShopifyErrorCode.UNAUTHORIZED,
      retryable: false,
    });
    await expect(client.raw('{ shop { name } }', {})).rejects.toMatchObject({
      code: ShopifyErrorCode.UNAUTHORIZED,
    });
    expect(s.renewals).toEqual(['t1', 't2']);
  });

  it('passes on a shop without a token as is (its jobs wait)', async () => {
    const waiting = new ShopAuthError(
      ShopAuthErrorCode.NEEDS_REAUTH,
      'a.myshopify.com is needs_reauth',
      1_000,
    );
    const client = new ShopAdminClient(
      'a.myshopify.com',
      { client: () => Promise.reject(waiting), renewAfterUnauthorized: async () => false },
      new ManualClock(),
      0,
    );
    await expect(client.request('{ shop { name } }', {}, 1)).rejects.toBe(waiting);
  });

  it('takes nothing from the cost bucket for a shop without a token (the shared bucket never gives a reservation back)', async () => {
    const waiting = new ShopAuthError(ShopAuthErrorCode.UNINSTALLED, 'a.myshopify.com is uninstalled', 1_000);
    const reserved: number[] = [];
    const pacer = {
      reserve: async (cost: number) => {
        reserved.push(cost);
        return { observe: async () => undefined, release: () => undefined };
      },
      observe: () => undefined,
      waitFor: () => 0,
    };
    const client = new ShopAdminClient(
      'a.myshopify.com',
      { client: () => Promise.reject(waiting), renewAfterUnauthorized: async () => false },
      new ManualClock(),
      0,
      pacer,
    );
    for (let i = 0; i < 3; i++)
      await expect(client.request('{ shop { name } }', {}, 50)).rejects.toBe(waiting);
    expect(reserved).toEqual([]);
    const s = source(['t1']);
    await new ShopAdminClient('a.myshopify.com', s.value, new ManualClock(), 0, pacer).request(
      '{ shop { name } }',
      {},
      50,
    );
    expect(reserved).toEqual([50]);
  });

  it('paces raw calls too: a first guess, then the requested cost Shopify answered for that document', async () => {
    const reserved: number[] = [];
    const pacer = {
      reserve: async (cost: number) => {
        reserved.push(cost);
        return { observe: async () => undefined, release: () => undefined };
      },
      observe: () => undefined,
      waitFor: () => 0,
    };
    const graphql = {
      request: async () => ({
        data: { ok: true },
        extensions: { cost: { requestedQueryCost: 31, actualQueryCost: 11 } },
      }),
    } as unknown as GraphqlClient;
    const client = new ShopAdminClient(
      'a.myshopify.com',
      { client: async () => ({ graphql, token: 't1' }), renewAfterUnauthorized: async () => false },
      new ManualClock(),
      0,
      pacer,
    );
    await client.raw('mutation A { a }', {});
    await client.raw('mutation A { a }', {});
    await client.raw('mutation B { b }', {});
    expect(reserved).toEqual([50, 31, 50]);
  });
});
