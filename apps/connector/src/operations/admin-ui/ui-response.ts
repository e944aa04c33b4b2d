import type { Response } from 'express';
import { UiSignInRequired } from './ui-errors.js';
import { UI_CSP } from './ui-html.js';
import type { UiRequest } from './ui-request.js';

/** Why: every page of the view answers with the same headers (its CSP, never cached). */
export function sendPage(res: Response, body: string): void {
  res
    .status(200)
    .setHeader('Content-Type', 'text/html; charset=utf-8')
    .setHeader('Content-Security-Policy', UI_CSP)
    .setHeader('Cache-Control', 'no-store')
    .end(body);
}

/** Why: a signed-in page's forms carry its session's CSRF token. */
export function sessionCsrf(req: UiRequest): string {
  if (!req.uiSession) throw new UiSignInRequired();
  return req.uiSession.csrf;
}
