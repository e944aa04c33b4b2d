import type { SignedBody } from './signed-body.reader.js';
import type { DeliveryRejection } from './verified-delivery.js';

/** What the connector takes from a `products/*` payload: which product, and as of when. */
export interface ProductPayloadFacts {
  productId: string | null;
  payloadUpdatedAt: Date | null;
  rejection: DeliveryRejection | null;
}

const MAX_BIGINT = 9_223_372_036_854_775_807n;
const PRODUCT_GID = /"admin_graphql_api_id"\s*:\s*"gid:(?:\\?\/){2}shopify\\?\/Product\\?\/(\d+)"/;

/**
 * Reads the product id and `updated_at` of a signed delivery, exactly:
 * - ids are parsed from their source text, so ids beyond 2^53 keep every digit;
 * - `admin_graphql_api_id` wins over `id` when both are there (they must agree);
 * - a body too large to keep yields the id from its first bytes (the gid comes first in
 *   Shopify's payloads), with no `updated_at`: the job reads the product anyway.
 * Anything else is a rejection the inbox keeps, with a code the caller is told.
 */
export function productPayloadFacts(body: SignedBody): ProductPayloadFacts {
  if (body.truncated) {
    const match = PRODUCT_GID.exec(body.bytes.toString('utf8'));
    return match?.[1] && validId(match[1])
      ? { productId: match[1], payloadUpdatedAt: null, rejection: null }
      : reject(
          'payload_too_large',
          `The body (${body.totalBytes} bytes) is too large and its product id is not in its first bytes.`,
        );
  }
  const text = body.bytes.toString('utf8');
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch (error) {
    return reject('malformed_json', `The body is not valid JSON: ${(error as Error).message}`);
  }
  // The reviver runs for every value of the payload (with a context object each): only an id
  // beyond 2^53 needs it, so only then is the body parsed again with it.
  if (hasUnsafeId(payload)) payload = JSON.parse(text, keepLargeIntegers);
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    return reject('invalid_payload', 'The body is not a JSON object.');
  }
  const fields = payload as Record<string, unknown>;
  const fromId = idText(fields.id);
  const fromGid = gidId(fields.admin_graphql_api_id);
  if (fromId !== null && fromGid !== null && fromId !== fromGid) {
    return reject('invalid_payload', `"id" (${fromId}) and "admin_graphql_api_id" (${fromGid}) disagree.`);
  }
  const productId = fromGid ?? fromId;
  if (productId === null) return reject('invalid_payload', 'The payload has no product "id".');
  return { productId, payloadUpdatedAt: timestamp(fields.updated_at), rejection: null };
}

function hasUnsafeId(payload: unknown): boolean {
  const id = (payload as { id?: unknown } | null)?.id;
  return typeof id === 'number' && !Number.isSafeInteger(id);
}

/** JSON.parse reviver: integers beyond 2^53 become their exact source text. */
function keepLargeIntegers(
  this: unknown,
  _key: string,
  value: unknown,
  context?: { source?: string },
): unknown {
  if (
    typeof value === 'number' &&
    !Number.isSafeInteger(value) &&
    context?.source &&
    /^-?\d+$/.test(context.source)
  ) {
    return context.source;
  }
  return value;
}

function idText(value: unknown): string | null {
  const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  return typeof text === 'string' && validId(text) ? text : null;
}

function gidId(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const match = /^gid:\/\/shopify\/Product\/(\d+)$/.exec(value);
  return match?.[1] && validId(match[1]) ? match[1] : null;
}

/** A positive integer that fits PostgreSQL's bigint (Shopify's ids do). */
function validId(text: string): boolean {
  return /^[1-9]\d{0,18}$/.test(text) && BigInt(text) <= MAX_BIGINT;
}

function timestamp(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms);
}

function reject(code: DeliveryRejection['code'], message: string): ProductPayloadFacts {
  return { productId: null, payloadUpdatedAt: null, rejection: { code, message } };
}
