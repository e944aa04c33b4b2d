import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CatalogClientError } from './catalog-client.error.js';
import { redactorFor } from './redaction.js';

describe('CatalogClientError redaction', () => {
  const key = 'k+y/secret=1';
  const redact = redactorFor(key);

  it('replaces the key as written and as a URL escapes it', () => {
    expect(redact(`a ${key} b ${encodeURIComponent(key)} c ${encodeURI(key)}`)).toBe(
      'a [redacted] b [redacted] c [redacted]',
    );
    expect(redactorFor('')('unchanged')).toBe('unchanged');
  });

  it('scrubs every text field before storing it, so stack, toJSON and inspect are clean too', () => {
    const error = new CatalogClientError({
      message: `failed for ${key}`,
      errorCode: 400,
      code: `code-${key}`,
      status: 400,
      details: { [key]: [key, { nested: encodeURIComponent(key) }], n: 1 },
      suggestion: `use ${key}`,
      retryable: false,
      method: 'GET',
      path: `/v1/products/${encodeURIComponent(key)}?q=${key}`,
      redact,
    });
    expect(error.path).toBe('/v1/products/[redacted]');
    expect(error.details).toEqual({ '[redacted]': ['[redacted]', { nested: '[redacted]' }], n: 1 });
    const texts = [
      String(error),
      error.stack ?? '',
      JSON.stringify(error),
      inspect(error, { showHidden: true }),
    ];
    for (const text of texts) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(encodeURIComponent(key));
    }
  });
});
