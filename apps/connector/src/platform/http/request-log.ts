import type { LoggerService } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import { type LogContext, logContext } from './log-context.js';
import { type ConnectorRequest, requestIdOf } from './request-id.js';

const QUIET = /^\/(health|metrics)(\/|$)/;
const SAFE_HEADER = /^[\w.:/-]{1,200}$/;

/**
 * Express middleware: opens each request's log context (its correlation id; for a webhook
 * also its webhook id, shop and topic) so every line written while handling it carries them,
 * and writes one line when the answer is sent: method, path (never the query string), status,
 * duration. Health checks and scrapes are logged at debug only.
 */
export function requestLog(logger: LoggerService) {
  return (req: ConnectorRequest, res: Response, next: NextFunction): void => {
    const context: LogContext = { correlationId: requestIdOf(req, res) };
    if (req.path.startsWith('/webhooks/')) {
      for (const [field, header] of [
        ['webhookId', 'x-shopify-webhook-id'],
        ['shop', 'x-shopify-shop-domain'],
        ['topic', 'x-shopify-topic'],
      ] as const) {
        const value = req.header(header);
        if (value !== undefined && SAFE_HEADER.test(value)) context[field] = value;
      }
    }
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number((process.hrtime.bigint() - started) / 1_000_000n);
      const line = {
        msg: `${req.method} ${req.path} ${res.statusCode} ${ms}ms`,
        ...context,
        status: res.statusCode,
      };
      logContext.run(context, () => {
        if (QUIET.test(req.path)) logger.debug?.(line, 'HTTP');
        else logger.log(line, 'HTTP');
      });
    });
    logContext.run(context, next);
  };
}
