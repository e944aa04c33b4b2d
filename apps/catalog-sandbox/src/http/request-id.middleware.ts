import { randomUUID } from 'node:crypto';
import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import { Clock } from '#lib/clock';
import type { SandboxRequest } from './sandbox-request.js';

/**
 * First on every request: the arrival time (sandbox clock) and the correlation id, the caller's
 * `X-Request-Id` when it is a sane one or a new one, echoed on every answer, errors included.
 */
@Injectable()
export class RequestIdMiddleware implements NestMiddleware {
  constructor(private readonly clock: Clock) {}

  use(req: SandboxRequest, res: Response, next: NextFunction): void {
    req.receivedAt = this.clock.now();
    const given = req.header('x-request-id');
    req.requestId = given && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', req.requestId);
    next();
  }
}
