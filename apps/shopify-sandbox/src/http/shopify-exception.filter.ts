import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ShopifyErrorCode, ShopifySandboxError } from './shopify-sandbox.error.js';

/**
 * The one place errors become HTTP answers, always in Shopify's shape `{"errors": ...}`, never
 * the framework's. Anything but a ShopifySandboxError is a bug: 500, logged, no details sent.
 */
@Catch()
export class ShopifyExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ShopifySandbox');

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const req = host.switchToHttp().getRequest<Request>();
    // Refused before its body was read: drain it, so the answer arrives and the connection is reused.
    if (!req.readableEnded) req.resume();
    if (res.headersSent) return;
    const error = this.map(exception, req);
    for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
    res.status(error.status).json(error.body());
  }

  private map(exception: unknown, req: Request): ShopifySandboxError {
    if (exception instanceof ShopifySandboxError) return exception;
    // Nest's own 404 for a path no middleware saw (the route check answers the others first).
    if (exception instanceof HttpException && exception.getStatus() === 404)
      return ShopifySandboxError.notFound();
    this.logger.error(`Unhandled error on ${req.method} ${req.path}`, (exception as Error)?.stack);
    return new ShopifySandboxError(ShopifyErrorCode.INTERNAL_ERROR, 'Internal Server Error');
  }
}
