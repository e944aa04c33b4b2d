import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { AdminSettings } from '../../platform/config/settings.js';

/** The `/admin/ui` session cookie's name; its path is `/admin/ui`. */
export const SESSION_COOKIE = 'connector_admin_session';

/** A verified session: its cookie value and the CSRF token every form of it carries. */
export interface AdminSessionInfo {
  value: string;
  csrf: string;
  expiresAt: number;
}

/**
 * The operators' web sessions, stateless: a cookie `<expiry>.<nonce>.<mac>` signed with a key
 * derived from the admin token, so every replica verifies it, nothing is stored, and rotating
 * the token signs everyone out. The CSRF token of a session is another MAC of the same value
 * (synchroniser token): a page of that session shows it in its forms, another site cannot read
 * it. Comparisons are in constant time; neither the token nor the key ever leaves this class.
 */
@Injectable()
export class AdminSession {
  private readonly key: Buffer | null;
  private readonly tokenDigest: Buffer | null;

  constructor(
    private readonly settings: AdminSettings,
    private readonly clock: Clock,
  ) {
    const token = settings.token?.reveal() ?? null;
    this.key =
      token === null ? null : createHmac('sha256', token).update('connector-admin-ui-session').digest();
    this.tokenDigest = token === null ? null : sha256(token);
  }

  /** False while no admin token is configured (the UI is closed like the API). */
  get enabled(): boolean {
    return this.key !== null;
  }

  /** Whether `given` is the admin token (constant time). */
  tokenMatches(given: string): boolean {
    return this.tokenDigest !== null && timingSafeEqual(sha256(given), this.tokenDigest);
  }

  /** A new session for someone who just gave the token. */
  open(): AdminSessionInfo {
    const expiresAt = this.clock.now() + this.settings.uiSessionTtlMs;
    const body = `${expiresAt}.${randomBytes(18).toString('base64url')}`;
    const value = `${body}.${this.mac(`session.${body}`)}`;
    return { value, csrf: this.mac(`csrf.${body}`), expiresAt };
  }

  /** The session of a cookie value, or null when it is missing, forged or expired. */
  verify(value: string | undefined): AdminSessionInfo | null {
    if (value === undefined || this.key === null) return null;
    const match = /^(\d{1,16})\.([\w-]{10,64})\.([\w-]{43})$/.exec(value);
    if (!match) return null;
    const body = `${match[1]}.${match[2]}`;
    if (!equal(match[3] as string, this.mac(`session.${body}`))) return null;
    const expiresAt = Number(match[1]);
    if (expiresAt <= this.clock.now()) return null;
    return { value, csrf: this.mac(`csrf.${body}`), expiresAt };
  }

  /** Whether a form's CSRF token belongs to the session (constant time). */
  csrfMatches(session: AdminSessionInfo, given: string | undefined): boolean {
    return given !== undefined && equal(given, session.csrf);
  }

  private mac(text: string): string {
    if (this.key === null) throw new Error('The admin UI is disabled');
    return createHmac('sha256', this.key).update(text).digest('base64url');
  }
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function equal(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}
