import type { Request } from 'express';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';

/** The admin routes' JSON bodies: at most this many bytes, unless a route says otherwise. */
export const JSON_LIMIT_BYTES = 16 * 1024;

/**
 * Why: the connector parses no body globally (the webhook door needs the raw bytes), so the few
 * admin routes that take a JSON object read it here: `application/json`, at most 16 KiB (or
 * `limit`), an object; anything else is a 400 `bad_request` naming what was wrong.
 */
export async function readAdminJson(
  req: Request,
  limit: number = JSON_LIMIT_BYTES,
): Promise<Record<string, unknown>> {
  const type = req.header('content-type') ?? '';
  if (!type.startsWith('application/json')) {
    throw new ConnectorError(
      ConnectorErrorCode.BAD_REQUEST,
      'The body must be JSON (Content-Type: application/json).',
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      throw new ConnectorError(ConnectorErrorCode.PAYLOAD_TOO_LARGE, `The body exceeds ${limit} bytes.`);
    }
    chunks.push(chunk);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new ConnectorError(ConnectorErrorCode.MALFORMED_JSON, 'The body is not valid JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConnectorError(ConnectorErrorCode.BAD_REQUEST, 'The body must be a JSON object.');
  }
  return parsed as Record<string, unknown>;
}
