import { createHash } from 'node:crypto';

/**
 * A stable, non-reversible name for an API key's rate budget: shared limiters key their Redis
 * keys and PostgreSQL rows by it, so the key itself is never stored.
 */
export function apiKeyFingerprint(apiKey: string): string {
  return createHash('sha256').update(`catalog-client:${apiKey}`).digest('hex').slice(0, 32);
}
