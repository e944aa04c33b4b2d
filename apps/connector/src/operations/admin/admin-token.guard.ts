import { createHash, timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { AdminSettings } from '../../platform/config/settings.js';
import { AuthFailureLimit } from '../../platform/http/auth-failure-limit.service.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import type { ConnectorRequest } from '../../platform/http/request-id.js';

const BEARER = /^Bearer[ ]+(\S+)\s*$/i;

/**
 * Guards every `/admin` route with `Authorization: Bearer <CONNECTOR_ADMIN_TOKEN>`, compared in
 * constant time (digests of equal length, so neither the token nor its length leaks). Without a
 * configured token the admin API is closed, never open: 503 `admin_disabled`. A wrong token counts
 * against the client's address (`AuthFailureLimit`: 429 once it has used them up); a missing
 * header is no guess and does not count.
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly expected: Buffer | null;

  constructor(
    settings: AdminSettings,
    private readonly limit: AuthFailureLimit,
  ) {
    const token = settings.token;
    this.expected = token === null ? null : digest(token.reveal());
  }

  canActivate(context: ExecutionContext): boolean {
    this.verify(context.switchToHttp().getRequest<ConnectorRequest>());
    return true;
  }

  /** Throws unless the request carries the admin token; the message never repeats what was sent. */
  verify(req: ConnectorRequest): void {
    if (this.expected === null) {
      throw new ConnectorError(
        ConnectorErrorCode.ADMIN_DISABLED,
        'The admin API is disabled: set CONNECTOR_ADMIN_TOKEN (or CONNECTOR_ADMIN_TOKEN_FILE) to enable it.',
      );
    }
    const client = this.limit.admit(req, 'bearer');
    const header = req.header('authorization');
    const given = header === undefined ? undefined : BEARER.exec(header)?.[1];
    if (given === undefined || !timingSafeEqual(digest(given), this.expected)) {
      if (header !== undefined) this.limit.failed(client, req, 'bearer');
      throw new ConnectorError(
        ConnectorErrorCode.UNAUTHORIZED,
        header === undefined
          ? 'The Authorization header is missing: send "Authorization: Bearer <CONNECTOR_ADMIN_TOKEN>".'
          : 'The admin token is wrong.',
        undefined,
        { 'WWW-Authenticate': 'Bearer realm="connector-admin"' },
      );
    }
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
