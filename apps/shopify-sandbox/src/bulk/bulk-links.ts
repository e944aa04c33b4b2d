import { createHmac, timingSafeEqual } from 'node:crypto';
import type { BulkOperationRecord } from './bulk-operation.js';

/**
 * Signed links to bulk results, shaped like the storage URLs Shopify hands out: the file's
 * name, `Expires` (Unix seconds) and a `Signature` over the shop, the name and `Expires`
 * (HMAC-SHA256 with the app secret), so a link cannot be stretched or pointed elsewhere.
 */
export function resultLink(
  base: string,
  secret: string,
  shop: string,
  record: BulkOperationRecord,
  expiresAtMs: number,
): string {
  const name = `${record.id}-${record.status === 'FAILED' ? 'partial' : 'final'}.jsonl`;
  const expires = String(Math.floor(expiresAtMs / 1000));
  const query = new URLSearchParams({
    Expires: expires,
    Signature: linkSignature(secret, shop, name, expires),
  });
  return `${base}/bulk-operation-outputs/${shop}/${name}?${query}`;
}

/** True when `signature` is the one `resultLink` made for these parts. */
export function signatureMatches(
  secret: string,
  shop: string,
  name: string,
  expires: string,
  signature: string,
): boolean {
  const expected = Buffer.from(linkSignature(secret, shop, name, expires));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The run id a result file's name carries (`7390000000042-final.jsonl`). */
export function linkRunId(name: string): number | undefined {
  const id = /^(\d+)-(final|partial)\.jsonl$/.exec(name)?.[1];
  return id === undefined ? undefined : Number(id);
}

function linkSignature(secret: string, shop: string, name: string, expires: string): string {
  return createHmac('sha256', secret).update(`${shop}/${name}:${expires}`).digest('base64url');
}
