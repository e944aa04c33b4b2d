import { applyDecorators, createParamDecorator, type ExecutionContext, type Type } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiResponse,
  ApiSecurity,
} from '@nestjs/swagger';
import { ApiConnectorErrorPages } from '../../platform/http/connector-error.dto.js';
import { connectorValidationPipe } from '../../platform/http/connector-validation.pipe.js';
import { UiCsrfForm } from './ui-forms.dto.js';
import type { UiRequest } from './ui-request.js';

/**
 * How each web-view route (`/admin/ui/...`) is declared for the OpenAPI document, beside its
 * handler (its controller tags it `admin-ui`): the `adminSession` cookie, pages answered as
 * `text/html` (errors too: the sign-in form for a 401), actions taking an
 * `application/x-www-form-urlencoded` form with the session's CSRF token.
 */

/** What every web-view route says of itself. */
export interface UiRouteSpec {
  operationId: string;
  summary: string;
  description?: string;
  /** Error statuses beyond 401 and 503 (no session, the UI closed) and 500. */
  errors?: number[];
}

const FORM = 'application/x-www-form-urlencoded';
const text = (mediaType: string) => ({ [mediaType]: { schema: { type: 'string' } } });
const PAGE = ApiResponse({ status: 200, description: 'Success', content: text('text/html') });
const SEE_OTHER = ApiResponse({ status: 303, description: 'Done: see the page in Location' });

function uiRoute(spec: UiRouteSpec, ...more: MethodDecorator[]): MethodDecorator {
  return applyDecorators(
    ApiSecurity('adminSession'),
    ApiOperation({ operationId: spec.operationId, summary: spec.summary, description: spec.description }),
    ApiConnectorErrorPages(401, 503, ...(spec.errors ?? [])),
    ...more,
  );
}

/**
 * Why: a page to read or a confirm page (GET, changes nothing), answered as HTML (`answer`: the
 * preview's CSV); `redirect`: it may also answer a 303 to another page.
 */
export function UiPage(spec: UiRouteSpec & { answer?: 'text/csv'; redirect?: true }): MethodDecorator {
  const answer = spec.answer
    ? ApiResponse({ status: 200, description: 'Success', content: text(spec.answer) })
    : PAGE;
  return uiRoute(spec, answer, ...(spec.redirect ? [SEE_OTHER] : []));
}

/** Why: a GET that only redirects (303) to the page to show. */
export function UiRedirect(spec: UiRouteSpec): MethodDecorator {
  return uiRoute(spec, SEE_OTHER);
}

/**
 * Why: an action: a POST of a form carrying the session's CSRF token (else 403) and its own
 * fields (`form`, a class of `ui-forms.dto.ts`, read with `@UiForm()`), answered with a 303 to
 * the page to show (`answer: 303`) or with a page of what it did.
 */
export function UiAction(
  spec: UiRouteSpec & { answer: 303 | 'page'; form?: Type<UiCsrfForm> },
): MethodDecorator {
  return uiRoute(
    spec,
    ApiConsumes(FORM),
    ApiBody({ type: spec.form ?? UiCsrfForm }),
    spec.answer === 303 ? SEE_OTHER : PAGE,
  );
}

/** Why: signing in, the one form without a session (so no CSRF token): the admin token, then a 303. */
export function UiSignIn(spec: UiRouteSpec & { form: Type }): MethodDecorator {
  return applyDecorators(
    ApiOperation({ operationId: spec.operationId, summary: spec.summary, security: [] }),
    ApiConnectorErrorPages(...(spec.errors ?? [])),
    ApiConsumes(FORM),
    ApiBody({ type: spec.form }),
    SEE_OTHER,
  );
}

/** Why: a page's query parameter: always optional (a page reads a missing or odd one as "any"). */
export function UiQuery(
  name: string,
  description: string,
  schema: { enum?: string[] } = {},
): MethodDecorator {
  return ApiQuery({ name, required: false, description, schema: { type: 'string', ...schema } });
}

/** Why: a path parameter and what the route accepts (any text by default). */
export function UiPathParam(
  name: string,
  schema: { pattern?: string; maxLength?: number } = { pattern: '^.+$' },
): MethodDecorator & ClassDecorator {
  return ApiParam({ name, schema: { type: 'string', ...schema } });
}

const formOf = createParamDecorator(
  (_: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<UiRequest>().uiForm ?? {},
);
// Fields a form class does not declare are dropped (buttons name themselves, e.g. `action`),
// not refused; a declared field that is wrong is a 400, which the UI's filter answers as a page.
const FORM_PIPE = connectorValidationPipe({ validateCustomDecorators: true, forbidNonWhitelisted: false });

/**
 * Why: an action's form (the guard has read it and checked its CSRF token), checked against the
 * parameter's class (`ui-forms.dto.ts`, the one `UiAction({ form })` documents).
 */
export const UiForm = (): ParameterDecorator => formOf(FORM_PIPE);
