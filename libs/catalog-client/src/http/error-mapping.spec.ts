import { describe, expect, it } from 'vitest';
import { fromResponse, fromTransportError, parseRetryAfter, redactorFor } from './error-mapping.js';

const id = { method: 'GET', path: '/v1/products/SK1?secret=x' };
const redact = redactorFor('the-key');

describe('error mapping', () => {
  it('unwraps a success envelope', () => {
    expect(fromResponse(id, 200, { errorCode: 0, data: { a: 1 } }, {}, redact)).toEqual({
      ok: true,
      status: 200,
      data: { a: 1 },
    });
  });

  it('maps a failure envelope, folding extra fields into details and redacting the key', () => {
    const result = fromResponse(
      id,
      400,
      {
        errorCode: 400,
        error: {
          code: 'invalid_variant_attribute',
          message: 'Attribute "the-key" is not variant-specific.',
          suggestion: 'Use the-key elsewhere.',
          attribute_key: 'the-key',
          details: { field: 'attributes' },
        },
      },
      {},
      redact,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result).toMatchObject({ outcome: 'client_error', verdict: 'healthy', retryReason: null });
    expect(result.error).toMatchObject({
      errorCode: 400,
      code: 'invalid_variant_attribute',
      status: 400,
      retryable: false,
      method: 'GET',
      path: '/v1/products/SK1',
      suggestion: 'Use [redacted] elsewhere.',
      details: { attribute_key: '[redacted]', field: 'attributes' },
    });
    expect(result.error.message).not.toContain('the-key');
  });

  it('classifies 401/403, 429, 5xx and answers that are not the envelope', () => {
    const failure = (
      status: number,
      body: unknown = { errorCode: status, error: { code: 'x', message: 'm' } },
    ) => {
      const result = fromResponse(id, status, body, { 'retry-after': '3' }, redact);
      if (result.ok) throw new Error('expected a failure');
      return result;
    };
    expect(failure(401)).toMatchObject({
      outcome: 'auth_error',
      verdict: 'auth',
      error: { retryable: false },
    });
    expect(failure(403)).toMatchObject({ outcome: 'auth_error', verdict: 'auth' });
    expect(failure(429)).toMatchObject({
      outcome: 'rate_limited',
      retryReason: 'rate_limited',
      error: { retryAfterMs: 3_000 },
    });
    expect(failure(503, '<html>Bad gateway</html>')).toMatchObject({
      outcome: 'server_error',
      verdict: 'unavailable',
      error: { code: 'invalid_response', status: 503, retryable: true },
    });
    expect(failure(200, 'not json')).toMatchObject({
      outcome: 'invalid_response',
      error: { retryable: false },
    });
  });

  it('maps time-outs and connection errors without keeping the cause', () => {
    const cause = Object.assign(new Error('socket hang up'), {
      code: 'ECONNRESET',
      config: { headers: { 'X-API-Key': 'the-key' } },
    });
    const dropped = fromTransportError(id, cause, false, 100);
    expect(dropped).toMatchObject({
      outcome: 'network_error',
      error: { code: 'network_error', status: null, retryable: true },
    });
    expect(JSON.stringify(dropped)).not.toContain('the-key');
    expect(fromTransportError(id, new Error('aborted'), true, 100)).toMatchObject({
      outcome: 'timeout',
      error: { code: 'timeout', details: { timeoutMs: 100 } },
    });
  });

  it('reads Retry-After in seconds, as a date, or from the envelope, taking the largest', () => {
    expect(parseRetryAfter('2', undefined)).toBe(2_000);
    expect(parseRetryAfter(undefined, { retry_after_seconds: 4 })).toBe(4_000);
    expect(parseRetryAfter('1', { retry_after_seconds: 5 })).toBe(5_000);
    const inAMinute = new Date(Date.now() + 60_000).toUTCString();
    expect(parseRetryAfter(inAMinute, undefined)).toBeGreaterThan(55_000);
    expect(parseRetryAfter('soon', undefined)).toBeUndefined();
  });
});
