import { createHash } from 'node:crypto';
import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import { readRawBody } from '#lib/app-shell';
import { CatalogErrorCode } from '#lib/catalog-contract';
import { SANDBOX_CONFIG } from '../catalog-sandbox.tokens.js';
import type { CatalogSandboxConfig } from '../config/catalog-sandbox.config.js';
import { CatalogApiError } from './catalog-api.error.js';
import type { SandboxRequest } from './sandbox-request.js';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * Reads JSON request bodies for the API and portal routes, once the caller's credential is
 * checked: refuses a non-JSON content type (415), a body over the limit (413) and malformed JSON
 * (400), each in the error envelope. Keeps the raw bytes for the request log's digest.
 */
@Injectable()
export class JsonBodyMiddleware implements NestMiddleware {
  constructor(@Inject(SANDBOX_CONFIG) private readonly config: CatalogSandboxConfig) {}

  use(req: SandboxRequest, _res: Response, next: NextFunction): void {
    if (!hasBody(req)) {
      next();
      return;
    }
    const type = req.header('content-type') ?? '';
    if (!JSON_TYPE.test(type)) {
      next(
        new CatalogApiError(CatalogErrorCode.UNSUPPORTED_MEDIA_TYPE, 'Request bodies must be JSON.', {
          suggestion: 'Send the header Content-Type: application/json.',
          details: { received: type || null },
        }),
      );
      return;
    }
    this.read(req)
      .then((raw) => {
        req.rawBody = raw;
        req.body = parseJson(raw);
        next();
      })
      .catch((error: unknown) => next(error));
  }

  private read(req: SandboxRequest): Promise<Buffer> {
    const portal = req.path.startsWith('/portal/');
    const limit = portal ? this.config.http.portalBodyLimitBytes : this.config.http.bodyLimitBytes;
    return readRawBody(
      req,
      limit,
      () =>
        new CatalogApiError(
          CatalogErrorCode.PAYLOAD_TOO_LARGE,
          `Request bodies are limited to ${limit} bytes.`,
          {
            details: { max_bytes: limit },
          },
        ),
    );
  }
}

function hasBody(req: SandboxRequest): boolean {
  const length = req.header('content-length');
  return (length !== undefined && length !== '0') || req.header('transfer-encoding') !== undefined;
}

function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw new CatalogApiError(CatalogErrorCode.MALFORMED_JSON, 'The request body is not valid JSON.', {
      details: { parser: (error as Error).message },
    });
  }
}

export function bodyDigest(raw: Buffer | undefined): string | null {
  return raw && raw.length > 0 ? createHash('sha256').update(raw).digest('hex') : null;
}
