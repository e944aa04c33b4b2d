import type { ArgumentsHost } from '@nestjs/common';
import { Logger, NotFoundException } from '@nestjs/common';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConnectorError } from './connector.error.js';
import { ConnectorErrorCode } from './connector-error-code.js';
import { ConnectorExceptionFilter } from './connector-exception.filter.js';

function answer(exception: unknown) {
  const sent: { status?: number; body?: unknown; headers: Record<string, string> } = { headers: {} };
  const res = {
    headersSent: false,
    setHeader: (name: string, value: string) => {
      sent.headers[name] = value;
    },
    status(code: number) {
      sent.status = code;
      return this;
    },
    json(body: unknown) {
      sent.body = body;
    },
  };
  const req = {
    method: 'POST',
    path: '/webhooks/shopify',
    header: (name: string) => (name === 'x-request-id' ? 'req-42' : undefined),
  };
  const host = {
    switchToHttp: () => ({ getResponse: () => res, getRequest: () => req }),
  } as unknown as ArgumentsHost;
  new ConnectorExceptionFilter().catch(exception, host);
  return sent;
}

describe('ConnectorExceptionFilter', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('answers a ConnectorError with its code, status from the table, and headers', () => {
    const sent = answer(ConnectorError.storageUnavailable());
    expect(sent.status).toBe(503);
    expect(sent.headers['Retry-After']).toBe('5');
    expect(sent.body).toMatchObject({ error: { code: 'storage_unavailable', requestId: 'req-42' } });
    // Its next step, in the causes table's words.
    expect((sent.body as { error: { hint: string } }).error.hint).toMatch(
      /^PostgreSQL does not answer\. Check DATABASE_URL and the database server\. \(\/health, `npm run connector -- check-config`\)$/,
    );
  });

  it('answers an unexpected error 500 with the correlation id only: no stack, no message', () => {
    const error = new Error('token shpat_leaky in a message');
    const sent = answer(error);
    expect(sent.status).toBe(500);
    expect(sent.body).toEqual({
      error: {
        code: ConnectorErrorCode.INTERNAL_ERROR,
        message: 'Internal error (request req-42).',
        requestId: 'req-42',
        hint: "The connector's log has the stack under this answer's requestId.",
      },
    });
    expect(JSON.stringify(sent.body)).not.toContain('shpat_leaky');
    expect(JSON.stringify(sent.body)).not.toContain('at ');
  });

  it("keeps Nest's own 404 in the connector's shape", () => {
    expect(answer(new NotFoundException()).body).toMatchObject({ error: { code: 'not_found' } });
  });

  it('uses the code table for every status', () => {
    expect(new ConnectorError(ConnectorErrorCode.INVALID_SIGNATURE, 'x').status).toBe(401);
    expect(new ConnectorError(ConnectorErrorCode.PAYLOAD_TOO_LARGE, 'x').status).toBe(413);
  });
});
