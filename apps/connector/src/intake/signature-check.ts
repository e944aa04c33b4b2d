import { createHmac, type Hmac, timingSafeEqual } from 'node:crypto';
import type { Secret } from '../platform/config/secret.js';

/**
 * Shopify's webhook signature (`X-Shopify-Hmac-Sha256`: base64 HMAC-SHA256 of the raw body),
 * computed while the body streams in, for every accepted secret at once (old and new during a
 * rotation), and compared in constant time. The bytes are never re-serialised: a body parsed and
 * stringified again (`\/` becomes `/`) would no longer match.
 */
export class SignatureCheck {
  private readonly hmacs: Hmac[];

  constructor(secrets: readonly Secret[]) {
    this.hmacs = secrets.map((secret) => createHmac('sha256', secret.reveal()));
  }

  update(chunk: Buffer): void {
    for (const hmac of this.hmacs) hmac.update(chunk);
  }

  /** Index of the secret that signed the body, or -1. Call once, after the last chunk. */
  verify(header: string): number {
    const given = Buffer.from(header.trim(), 'base64');
    let match = -1;
    this.hmacs.forEach((hmac, index) => {
      const digest = hmac.digest();
      if (given.length === digest.length && timingSafeEqual(given, digest) && match < 0) match = index;
    });
    return match;
  }
}
