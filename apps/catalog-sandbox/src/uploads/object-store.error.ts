import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';

/**
 * An error of the sandbox's object store and CDN, answered the way an object store does (not in
 * the catalog's envelope): a status and a small XML document with `Code` and `Message`.
 */
export class ObjectStoreError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ObjectStoreError';
  }

  static accessDenied(message: string): ObjectStoreError {
    return new ObjectStoreError(403, 'AccessDenied', message);
  }

  xml(): string {
    return (
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
      `<Error><Code>${escapeXml(this.code)}</Code><Message>${escapeXml(this.message)}</Message></Error>\n`
    );
  }
}

/** Writes ObjectStoreErrors as XML; scoped to the object-store controller. */
@Catch(ObjectStoreError)
export class ObjectStoreErrorFilter implements ExceptionFilter {
  catch(error: ObjectStoreError, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const req = host.switchToHttp().getRequest<Request>();
    // Refused before its body was read: drain it, so the connection can answer and be reused.
    if (!req.readableEnded) req.resume();
    if (res.headersSent) return;
    res.status(error.status).type('application/xml').send(error.xml());
  }
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
