import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { hintFor } from '../causes/error-causes.js';
import { ConnectorError, type ConnectorErrorBody } from './connector.error.js';
import { ConnectorErrorCode } from './connector-error-code.js';
import { type ConnectorRequest, requestIdOf } from './request-id.js';

/**
 * The one place errors become HTTP answers, always `{"error": {code, message, requestId}}`, with
 * `hint` (the next step, from the causes table) for the codes that have one. Anything unexpected
 * answers 500 with the correlation id only: no stack, no message, no secret (the log line has
 * the stack, under the same id).
 */
@Catch()
export class ConnectorExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Connector');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const res = http.getResponse<Response>();
    const req = http.getRequest<ConnectorRequest>();
    if (res.headersSent) return;
    const requestId = requestIdOf(req, res);
    const error = this.toConnectorError(exception, req, requestId);
    const hint = hintFor(error.code, error.details);
    const body: ConnectorErrorBody = {
      error: {
        code: error.code,
        message: error.message,
        requestId,
        ...(error.details ? { details: error.details } : {}),
        ...(hint === null ? {} : { hint }),
      },
    };
    for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
    res.status(error.status).json(body);
  }

  private toConnectorError(exception: unknown, req: ConnectorRequest, requestId: string): ConnectorError {
    if (exception instanceof ConnectorError) return exception;
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404) {
        return new ConnectorError(ConnectorErrorCode.NOT_FOUND, `No route ${req.method} ${req.path}.`);
      }
      if (status === 405) {
        return new ConnectorError(
          ConnectorErrorCode.METHOD_NOT_ALLOWED,
          `${req.method} is not allowed here.`,
        );
      }
      if (status < 500) return new ConnectorError(ConnectorErrorCode.BAD_REQUEST, exception.message);
    }
    const stack = exception instanceof Error ? exception.stack : String(exception);
    this.logger.error(`Unhandled error on ${req.method} ${req.path} [${requestId}]`, stack);
    return new ConnectorError(ConnectorErrorCode.INTERNAL_ERROR, `Internal error (request ${requestId}).`);
  }
}
