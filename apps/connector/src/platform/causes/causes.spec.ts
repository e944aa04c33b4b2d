import { describe, expect, it } from 'vitest';
import { ConnectorErrorCode } from '../http/connector-error-code.js';
import { CAUSE_CODES, CAUSES, nextStep, nextStepText } from './causes.js';
import { causeOfError, errorInWords, hintFor } from './error-causes.js';

describe('the causes table', () => {
  it('gives every cause words and a next step with a page of the web view or a command', () => {
    for (const code of CAUSE_CODES) {
      for (const shop of ['a.myshopify.com', null]) {
        const next = nextStep(code, shop);
        expect(CAUSES[code].words, code).toMatch(/^[a-zA-Z]/);
        expect(next.text, code).toMatch(/\.$/);
        expect(next.href !== null || next.command !== null, code).toBe(true);
        if (next.href !== null) expect(next.href, code).toMatch(/^\/(admin\/ui(\/|$)|health$)/);
        if (next.command !== null) expect(next.command, code).toMatch(/^npm run connector -- [a-z]/);
      }
    }
  });

  it("points a shop's next step at that shop, and every shop's at every shop", () => {
    expect(nextStep('open_failures', 'a.myshopify.com')).toEqual({
      text: 'Read each failure, fix its cause, then replay or dismiss it.',
      href: '/admin/ui/failures?shop=a.myshopify.com',
      command: 'npm run connector -- failures --shop a.myshopify.com',
    });
    expect(nextStep('open_failures', null)).toMatchObject({
      href: '/admin/ui/failures',
      command: 'npm run connector -- failures',
    });
    expect(nextStep('sync_backlog', 'a.myshopify.com').href).toBe(
      '/admin/ui/deliveries?shop=a.myshopify.com&state=received',
    );
    expect(nextStep('catalog_server_errors', 'a.myshopify.com').command).toBe(
      'npm run connector -- replay --all --shop a.myshopify.com',
    );
  });

  it('names the cause of the error codes a failure records, in words', () => {
    expect(causeOfError('internal_error')).toBe('catalog_server_errors');
    expect(causeOfError('circuit_open')).toBe('catalog_breaker_open');
    expect(causeOfError('create_outcome_unknown')).toBe('catalog_create_unknown');
    expect(causeOfError('shopify_unauthorized')).toBe('shopify_token_refused');
    expect(causeOfError('shopify_throttled')).toBe('shopify_throttled');
    expect(causeOfError('shopify_access_denied')).toBe('shopify_scopes_missing');
    expect(causeOfError('no_such_code')).toBeNull();
    expect(errorInWords('circuit_open')).toMatch(/^the catalog breaker is open/);
    expect(errorInWords('no_such_code')).toBe('no_such_code');
  });

  it("gives an API error's hint where its code has a next step", () => {
    expect(hintFor(ConnectorErrorCode.STORAGE_UNAVAILABLE)).toBe(
      'PostgreSQL does not answer. Check DATABASE_URL and the database server. (/health, `npm run connector -- check-config`)',
    );
    expect(hintFor(ConnectorErrorCode.UNAUTHORIZED)).toMatch(
      /^Send `Authorization: Bearer <CONNECTOR_ADMIN_TOKEN>`/,
    );
    expect(hintFor(ConnectorErrorCode.INTERNAL_ERROR)).toMatch(/requestId/);
    expect(hintFor(ConnectorErrorCode.STORAGE_UNAVAILABLE, { cause: 'database_out_of_connections' })).toMatch(
      /^PostgreSQL has no connection left \(too many clients\)\. Raise the server's max_connections/,
    );
    expect(hintFor(ConnectorErrorCode.NOT_FOUND)).toBeNull();
    expect(hintFor(ConnectorErrorCode.BAD_REQUEST)).toBeNull();
    expect(nextStepText({ text: 'Do it.', href: null, command: null })).toBe('Do it.');
  });
});
