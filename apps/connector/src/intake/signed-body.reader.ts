import type { Request } from 'express';
import { ConnectorError } from '../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../platform/http/connector-error-code.js';
import type { SignatureCheck } from './signature-check.js';

/** A request body read for its signature: kept whole up to the limit, else its first bytes. */
export interface SignedBody {
  /** The whole body, or its first `keepLimit` bytes when `truncated`. */
  bytes: Buffer;
  totalBytes: number;
  truncated: boolean;
}

/** Bodies beyond this are refused outright (413) without being signed or kept. */
export const HARD_LIMIT_FACTOR = 16;

/**
 * Streams the body through the signature check. Up to `keepLimit` bytes are kept whole; a larger
 * body is still hashed to the end (so a genuine large delivery can be recognised) but only its
 * beginning is kept. Past `keepLimit * HARD_LIMIT_FACTOR` the request is refused with 413.
 */
export function readSignedBody(req: Request, check: SignatureCheck, keepLimit: number): Promise<SignedBody> {
  const hardLimit = keepLimit * HARD_LIMIT_FACTOR;
  const tooLarge = () =>
    new ConnectorError(
      ConnectorErrorCode.PAYLOAD_TOO_LARGE,
      `Webhook bodies are limited to ${hardLimit} bytes.`,
      {
        maxBytes: hardLimit,
      },
    );
  const declared = Number(req.header('content-length') ?? Number.NaN);
  if (declared > hardLimit) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let total = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      total += chunk.length;
      if (total > hardLimit) {
        failed = true;
        req.unpipe();
        req.resume();
        reject(tooLarge());
        return;
      }
      check.update(chunk);
      if (keptBytes < keepLimit) {
        const part = chunk.subarray(0, keepLimit - keptBytes);
        kept.push(part);
        keptBytes += part.length;
      }
    });
    req.on('end', () => {
      if (!failed) resolve({ bytes: Buffer.concat(kept), totalBytes: total, truncated: total > keepLimit });
    });
    req.on('error', (error) => {
      if (failed) return;
      failed = true;
      reject(error);
    });
  });
}
