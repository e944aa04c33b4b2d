import { HttpInternalError, HttpResponseError, HttpThrottlingError } from '@shopify/shopify-api';
import { describe, expect, it } from 'vitest';
import { grantFailure } from './token-grants.service.js';

const answer = (code: number, body: Record<string, unknown>) => ({
  message: `HTTP ${code}`,
  code,
  statusText: '',
  body,
  headers: {},
});

describe('grantFailure', () => {
  it("takes Shopify's refusals for what needs a person (needs_reauth)", () => {
    expect(
      grantFailure(
        new HttpResponseError(answer(401, { error: 'invalid_client', error_description: 'unknown client' })),
      ),
    ).toEqual({ refused: true, reason: 'invalid_client: unknown client' });
    expect(grantFailure(new HttpResponseError(answer(400, { error: 'invalid_grant' })))).toEqual({
      refused: true,
      reason: 'invalid_grant',
    });
    expect(
      grantFailure(
        new HttpResponseError(
          answer(400, {
            error: 'invalid_request',
            error_description: 'The app is not installed on this shop.',
          }),
        ),
      ),
    ).toMatchObject({ refused: true });
    expect(grantFailure(new HttpResponseError(answer(400, { error: 'shop_not_permitted' })))).toMatchObject({
      refused: true,
    });
  });

  it('tries again after a 5xx, a 429 or a network error', () => {
    expect(grantFailure(new HttpInternalError(answer(503, {})))).toMatchObject({ refused: false });
    expect(grantFailure(new HttpThrottlingError({ ...answer(429, {}), retryAfter: 1 }))).toMatchObject({
      refused: false,
    });
    expect(grantFailure(new TypeError('fetch failed'))).toEqual({
      refused: false,
      reason: 'TypeError: fetch failed',
    });
    expect(grantFailure(new SyntaxError('Unexpected token < in JSON'))).toMatchObject({ refused: false });
  });
});
