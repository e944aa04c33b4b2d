import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
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
    if (res.headersSent) return;
    const { status, body, headers } = this.map(exception, req);
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.status(status).json(body);
  }

  private map(exception: unknown, req: SandboxRequest) {
    if (exception instanceof CatalogApiError) {
      return {
        status: exception.status,
        body: failure(exception.status, exception.body()),
        headers: exception.headers,
      };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const code = status === 404 ? CatalogErrorCode.NOT_FOUND : CatalogErrorCode.VALIDATION_ERROR;
      const message = status === 404 ? `No route ${req.method} ${req.path}.` : exception.message;
      return { status, body: failure(status, { code, message }), headers: {} };
    }
    const requestId = req.requestId ?? 'unknown';
    this.logger.error(
      `Unhandled error on ${req.method} ${req.path} [${requestId}]`,
      (exception as Error)?.stack,
    );
    return {
      status: 500,
      body: failure(500, {
        code: CatalogErrorCode.INTERNAL_ERROR,
        message: 'Internal error.',
        details: { requestId },
      }),
      headers: {},
    };
  }
}

function failure(status: number, error: CatalogFailure['error']): CatalogFailure {
  return { errorCode: status, error };
}
