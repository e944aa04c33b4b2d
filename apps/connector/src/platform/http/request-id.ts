import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';

const GIVEN_ID = /^[\w.:-]{1,128}$/;

/** An Express request with the connector's correlation id. */
export interface ConnectorRequest extends Request {
  requestId?: string;
}

/**
 * The request's correlation id: the caller's `X-Request-Id` when it looks like one, otherwise a
 * new UUID. Set once, echoed in `X-Request-Id`, quoted in error bodies and log lines.
 */
export function requestIdOf(req: ConnectorRequest, res?: Response): string {
  if (req.requestId === undefined) {
    const given = req.header('x-request-id');
    req.requestId = given && GIVEN_ID.test(given) ? given : randomUUID();
    if (res && !res.headersSent) res.setHeader('X-Request-Id', req.requestId);
  }
  return req.requestId;
}
