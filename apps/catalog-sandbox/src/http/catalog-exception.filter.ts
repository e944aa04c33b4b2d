import { type ArgumentsHost, Catch, type ExceptionFilter, Logger, NotFoundException } from '@nestjs/common';
import type { Response } from 'express';
import { CatalogErrorCode, type CatalogFailure } from '#lib/catalog-contract';
import { CatalogApiError } from './catalog-api.error.js';
import type { SandboxRequest } from './sandbox-request.js';

/**
 * The one place errors become HTTP answers, always in the catalog's error envelope. Unknown
 * errors answer 500 with the correlation id only: no stack, no message, no secret.
 */
@Catch()
export class CatalogExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('CatalogSandbox');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const res = http.getResponse<Response>();
    const req = http.getRequest<SandboxRequest>();
    // Refused before its body was read (401, 404, 405, 413): drain it, so the answer arrives.
    if (!req.readableEnded) req.resume();
    if (res.headersSent) return;
    const error = this.map(exception, req);
    for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
    const body: CatalogFailure = { errorCode: error.status, error: error.body() };
    res.status(error.status).json(body);
  }

  private map(exception: unknown, req: SandboxRequest): CatalogApiError {
    if (exception instanceof CatalogApiError) return exception;
    // Nest's own 404 for a path the route check did not see (it answers the others first).
    if (exception instanceof NotFoundException) return CatalogApiError.routeNotFound(req.method, req.path);
    const requestId = req.requestId ?? 'unknown';
    this.logger.error(
      `Unhandled error on ${req.method} ${req.path} [${requestId}]`,
      (exception as Error)?.stack,
    );
    return new CatalogApiError(CatalogErrorCode.INTERNAL_ERROR, 'Internal error.', {
      details: { requestId },
    });
  }
}
