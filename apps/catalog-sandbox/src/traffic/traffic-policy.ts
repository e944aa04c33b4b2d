import { Injectable } from '@nestjs/common';
import { CatalogErrorCode, CatalogLimits } from '#lib/catalog-contract';
import { Clock } from '#lib/clock';
import type { Account } from '../accounts/account.js';
import { CatalogApiError } from '../http/catalog-api.error.js';
import type { SandboxRequest } from '../http/sandbox-request.js';

/**
 * What happens to an authenticated `/v1` request before its handler: the account's rate limit
 * (token bucket), then any injected faults (latency, 429 burst, 500, commit-then-drop).
 */
@Injectable()
export class TrafficPolicy {
  constructor(private readonly clock: Clock) {}

  async admit(account: Account, req: SandboxRequest): Promise<void> {
    const verdict = account.rateBucket.take(this.clock.now());
    if (!verdict.allowed) throw tooManyRequests(Math.max(1, Math.ceil(verdict.retryAfterMs / 1000)), false);
    const { faults } = account;
    const method = req.method;
    const path = req.path;
    if (faults.triggers('latency', method, path)) await this.clock.sleep(faults.current.latency?.ms ?? 0);
    if (faults.triggers('burst429', method, path)) {
      const seconds =
        faults.current.burst429?.retryAfterSeconds ?? CatalogLimits.RETRY_AFTER_429_MIN_MS / 1000;
      throw tooManyRequests(seconds, true);
    }
    if (faults.triggers('error500', method, path)) {
      throw new CatalogApiError(CatalogErrorCode.INTERNAL_ERROR, 'Internal error.', {
        details: { requestId: req.requestId ?? 'unknown', injected: true },
      });
    }
    if (faults.triggers('commitThenDrop', method, path)) req.dropAfterCommit = true;
  }
}

function tooManyRequests(retryAfterSeconds: number, injected: boolean): CatalogApiError {
  return new CatalogApiError(
    CatalogErrorCode.RATE_LIMIT_EXCEEDED,
    'Too many requests.',
    {
      suggestion: `Wait at least ${retryAfterSeconds} s (the Retry-After header) and space requests to about 4 per second.`,
      details: { retry_after_seconds: retryAfterSeconds, ...(injected ? { injected: true } : {}) },
    },
    { 'Retry-After': String(retryAfterSeconds) },
  );
}
