import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { AdminSession, type AdminSessionInfo, SESSION_COOKIE } from './admin-session.service.js';
import { UiCsrfRefused, UiDisabled, UiSignInRequired } from './ui-errors.js';
import { cookieOf, readForm, type UiRequest } from './ui-request.js';

/**
 * Guards every `/admin/ui` page and action but the sign-in itself: a valid session cookie
 * (else the sign-in page, 401), and on every POST the session's CSRF token in the form plus a
 * same-origin `Origin` when the browser sends one (else 403). The form is read here, once.
 */
@Injectable()
export class AdminUiGuard implements CanActivate {
  constructor(private readonly sessions: AdminSession) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<UiRequest>();
    const session = this.sessionOf(req);
    req.uiSession = session;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      req.uiForm = await readForm(req);
      if (!sameOrigin(req) || !this.sessions.csrfMatches(session, req.uiForm._csrf))
        throw new UiCsrfRefused();
    }
    return true;
  }

  /** The request's session; throws the UI's 401 or 503. Also used by the queues view's mount. */
  sessionOf(req: UiRequest): AdminSessionInfo {
    if (!this.sessions.enabled) throw new UiDisabled();
    const session = this.sessions.verify(cookieOf(req, SESSION_COOKIE));
    if (session === null) throw new UiSignInRequired();
    return session;
  }
}

/** True unless the browser says the request comes from another origin. */
export function sameOrigin(req: UiRequest): boolean {
  const origin = req.header('origin');
  if (origin !== undefined && origin !== 'null') {
    const host = req.header('host');
    if (host === undefined) return false;
    try {
      if (new URL(origin).host !== host) return false;
    } catch {
      return false;
    }
  } else if (origin === 'null') {
    return false;
  }
  const site = req.header('sec-fetch-site');
  return site === undefined || site === 'same-origin' || site === 'none';
}
