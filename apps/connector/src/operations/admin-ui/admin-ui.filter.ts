import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { hintFor } from '../../platform/causes/error-causes.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { UiCsrfRefused, UiDisabled, UiSignInRequired } from './ui-errors.js';
import { esc, page, signInPage, UI_CSP } from './ui-html.js';

/** The error's next step (the causes table's hint), when its code has one. */
function nextStep(error: ConnectorError): string {
  const hint = hintFor(error.code, error.details);
  return hint === null ? '' : `<p class="next">Next: ${esc(hint)}</p>`;
}

/**
 * The operators' view answers in HTML, errors included: no session is the sign-in page (401),
 * a failed CSRF check a 403 page, a closed admin API 503, too many failed sign-ins the sign-in page
 * with the wait (429, `Retry-After`), a connector error its status and message (and headers).
 * Anything else goes on to the connector's filter (a 500 with a correlation id only).
 */
@Catch(UiSignInRequired, UiCsrfRefused, UiDisabled, ConnectorError)
export class AdminUiFilter implements ExceptionFilter {
  catch(error: Error, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const [status, html] =
      error instanceof UiSignInRequired
        ? [401, signInPage(error.problem)]
        : error instanceof UiCsrfRefused
          ? [
              403,
              page(
                'Refused',
                '<p class="error">This form is not from a page of your session (CSRF check). Reload the page and try again.</p>',
                null,
              ),
            ]
          : error instanceof UiDisabled
            ? [503, page('Disabled', '<p>The admin UI is disabled: set CONNECTOR_ADMIN_TOKEN.</p>', null)]
            : (error as ConnectorError).code === ConnectorErrorCode.TOO_MANY_ATTEMPTS
              ? [429, signInPage(error.message)]
              : [
                  (error as ConnectorError).status,
                  page(
                    'Error',
                    `<p class="error">${esc(error.message)}</p>${nextStep(error as ConnectorError)}<p><a href="/admin/ui">Back</a></p>`,
                    null,
                  ),
                ];
    if (error instanceof ConnectorError) {
      for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
    }
    res
      .status(status)
      .setHeader('Content-Type', 'text/html; charset=utf-8')
      .setHeader('Content-Security-Policy', UI_CSP)
      .setHeader('Cache-Control', 'no-store')
      .end(html);
  }
}
