import type { Response } from 'express';
import { UiSignInRequired } from './ui-errors.js';
import { UI_CSP } from './ui-html.js';
import type { UiRequest } from './ui-request.js';

/** Why: every `/admin/ui` controller needs the signed-in session's CSRF token for its forms. */
export function csrfOf(req: UiRequest): string {
  if (!req.uiSession) throw new UiSignInRequired();
  return req.uiSession.csrf;
}

/** Why: every page goes out with the same CSP and no caching, whichever controller renders it. */
export function sendHtml(res: Response, status: number, body: string): void {
  res
    .status(status)
    .setHeader('Content-Type', 'text/html; charset=utf-8')
    .setHeader('Content-Security-Policy', UI_CSP)
    .setHeader('Cache-Control', 'no-store')
    .end(body);
}
