import type { Request } from 'express';
import { readRawBody } from '#lib/app-shell';
import { ShopifyErrorCode, ShopifySandboxError } from '../http/shopify-sandbox.error.js';
import type { TokenParams } from './token-grants.js';

const LIMIT_BYTES = 64 * 1024;

/**
 * The parameters of a token request as Shopify reads them: the query string, then the body,
 * form-encoded (`application/x-www-form-urlencoded`) or JSON (`@shopify/shopify-api` sends JSON,
 * with `expiring` as the string "1" or the number 1). The body wins over the query.
 */
export async function tokenParams(request: Request): Promise<TokenParams> {
  const params: TokenParams = {};
  for (const [name, value] of Object.entries(request.query))
    if (typeof value === 'string') params[name] = value;
  const raw = (
    await readRawBody(
      request,
      LIMIT_BYTES,
      () =>
        new ShopifySandboxError(
          ShopifyErrorCode.PAYLOAD_TOO_LARGE,
          `Request bodies are limited to ${LIMIT_BYTES} bytes`,
        ),
    )
  ).toString('utf8');
  if (raw.trim() === '') return params;
  const type = request.header('content-type') ?? '';
  if (/json/i.test(type)) {
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      throw ShopifySandboxError.oauth('invalid_request', 'The request body is not valid JSON');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw ShopifySandboxError.oauth('invalid_request', 'The request body must be a JSON object');
    }
    for (const [name, value] of Object.entries(body)) {
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
        params[name] = String(value === true ? 1 : value === false ? 0 : value);
      }
    }
    return params;
  }
  for (const [name, value] of new URLSearchParams(raw)) params[name] = value;
  return params;
}
