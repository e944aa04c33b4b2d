import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import { Clock } from '#lib/clock';
import { bodyDigest } from '../http/json-body.middleware.js';
import type { SandboxRequest } from '../http/sandbox-request.js';

/** Records every authenticated `/v1` call in its account's request log once it is answered. */
@Injectable()
export class RequestLogMiddleware implements NestMiddleware {
  constructor(private readonly clock: Clock) {}

  use(req: SandboxRequest, res: Response, next: NextFunction): void {
    const arrived = this.clock.now();
    const record = () => {
      if (!req.catalog) return;
      const query: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.query)) query[name] = String(value);
      req.catalog.account.requestLog.record({
        method: req.method,
        path: req.path,
        query,
        status: res.statusCode,
        time: req.receivedAt ?? arrived,
        durationMs: Math.max(0, this.clock.now() - arrived),
        bodyDigest: bodyDigest(req.rawBody),
        apiKeyId: req.catalog.key.id,
      });
    };
    res.once('finish', record);
    res.once('close', () => {
      if (!res.writableFinished) record();
    });
    next();
  }
}
