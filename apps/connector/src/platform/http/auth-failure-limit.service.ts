import type { IncomingMessage } from 'node:http';
import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { AdminSettings, HttpSettings } from '../config/settings.js';
import { ConnectorError } from './connector.error.js';
import { ConnectorErrorCode } from './connector-error-code.js';
import { TrustedNetworks } from './trusted-networks.js';

/** What was tried: a bearer token on `/admin/*`, or the web view's sign-in form. */
export type AuthAttempt = 'bearer' | 'sign-in';

/** Addresses followed at most (an attacker with many addresses cannot grow the map without end). */
const MAX_CLIENTS = 10_000;

/**
 * Failed authentications per client address (the socket's peer, or the address our proxy saw:
 * `TrustedNetworks.clientOf`): after `CONNECTOR_AUTH_FAILURE_LIMIT` failures within
 * `CONNECTOR_AUTH_FAILURE_WINDOW_MS`, every further attempt from that address answers 429 with
 * `Retry-After` (when the oldest failure leaves the window), the right token included, so a
 * guess cannot be told from a refusal. A right token clears nothing (others may share the
 * address). Counts live in this process: each replica limits on its own (docs/operations.md,
 * "Listeners"). One instance per app (`AuthFailureLimitModule`, global): every module guarding
 * admin routes counts with it.
 */
@Injectable()
export class AuthFailureLimit {
  private readonly logger = new Logger('AdminAuth');
  private readonly trusted: TrustedNetworks;
  /** Each address's failure times within the window, oldest first (at most the limit). */
  private readonly failures = new Map<string, number[]>();
  /** Each limited address's window end already logged, so one line says it is limited. */
  private readonly logged = new Map<string, number>();

  constructor(
    private readonly settings: AdminSettings,
    http: HttpSettings,
    private readonly clock: Clock,
  ) {
    this.trusted = new TrustedNetworks(http.trustedNetworks);
  }

  /** The client's address; throws 429 `too_many_attempts` when it has used up its failures. */
  admit(req: IncomingMessage, attempt: AuthAttempt): string {
    const client = this.trusted.clientOf(req);
    const now = this.clock.now();
    const recent = this.recent(client, now);
    if (recent.length < this.settings.authFailureLimit) return client;
    const until = (recent[0] as number) + this.settings.authFailureWindowMs;
    const retryAfterS = Math.max(1, Math.ceil((until - now) / 1000));
    if (this.logged.get(client) !== until) {
      this.logged.set(client, until);
      this.logger.warn({
        msg: `Admin authentication limited: ${recent.length} failures from ${client}, refused for ${retryAfterS} s`,
        client,
        attempt,
        path: pathOf(req),
        failures: recent.length,
        retryAfterS,
      });
    }
    throw new ConnectorError(
      ConnectorErrorCode.TOO_MANY_ATTEMPTS,
      `Too many failed attempts from your address: try again in ${retryAfterS} s.`,
      { retryAfterS },
      { 'Retry-After': String(retryAfterS) },
    );
  }

  /** Counts one failure of `client` (never what it sent). */
  failed(client: string, req: IncomingMessage, attempt: AuthAttempt): void {
    const now = this.clock.now();
    const recent = this.recent(client, now);
    recent.push(now);
    this.failures.delete(client); // re-inserted last: the map's order is the order of last failure
    this.failures.set(client, recent.slice(-this.settings.authFailureLimit));
    this.logger.warn({
      msg: `Admin authentication failed (${attempt}) from ${client}: ${recent.length} of ${this.settings.authFailureLimit} within the window`,
      client,
      attempt,
      path: pathOf(req),
      failures: recent.length,
    });
    if (this.failures.size > MAX_CLIENTS) this.prune(now);
  }

  /** The client's failures still within the window. */
  private recent(client: string, now: number): number[] {
    const since = now - this.settings.authFailureWindowMs;
    const kept = (this.failures.get(client) ?? []).filter((at) => at > since);
    if (kept.length === 0) {
      this.failures.delete(client);
      this.logged.delete(client);
    }
    return kept;
  }

  /** Forgets addresses whose failures all left the window, then the longest quiet ones. */
  private prune(now: number): void {
    for (const client of [...this.failures.keys()]) this.recent(client, now);
    for (const client of this.failures.keys()) {
      if (this.failures.size <= MAX_CLIENTS) break;
      this.failures.delete(client);
      this.logged.delete(client);
    }
  }
}

/** The request's path without its query string (which a log line never carries). */
function pathOf(req: IncomingMessage): string {
  return (req.url ?? '').split('?')[0] as string;
}
