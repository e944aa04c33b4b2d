import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';

/** The object store's error codes (S3's names) and their HTTP status: one status per code. */
export const OBJECT_STORE_ERROR_STATUS = {
  AccessDenied: 403,
  SignatureDoesNotMatch: 403,
  NoSuchUpload: 404,
  NoSuchKey: 404,
  InvalidContentType: 400,
  InvalidImage: 400,
  EntityTooLarge: 413,
} as const;
export type ObjectStoreErrorCode = keyof typeof OBJECT_STORE_ERROR_STATUS;

/**
 * An error of the sandbox's object store and CDN, answered the way an object store does (not in
 * the catalog's envelope, which belongs to the catalog API): the code's status and a small XML
 * document with `Code` and `Message`.
 */
export class ObjectStoreError extends Error {
  readonly status: number;

  constructor(
    readonly code: ObjectStoreErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ObjectStoreError';
    this.status = OBJECT_STORE_ERROR_STATUS[code];
  }

  static accessDenied(message: string): ObjectStoreError {
    return new ObjectStoreError('AccessDenied', message);
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
