import { operation } from './openapi-operation.js';

/** Why: the pieces every web-view (`/admin/ui`) route of the OpenAPI document is described with. */

export const HTML = { mediaType: 'text/html', schema: { type: 'string' } };
export const FAILURE_ID = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
};
export const PRODUCT_ID = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
};
export const FORM = (fields: Record<string, unknown>, required: string[]) => ({
  required: true,
  content: {
    'application/x-www-form-urlencoded': { schema: { type: 'object', required, properties: fields } },
  },
});
const CSRF = { type: 'string', description: "The session's CSRF token (in every page's forms)." };

/** A web-view form body: the session's CSRF token (required) and the action's own fields. */
export const csrfForm = (fields: Record<string, unknown> = {}) => FORM({ _csrf: CSRF, ...fields }, ['_csrf']);
export const CSRF_FORM = csrfForm();

/** A UI action: a POST form with the CSRF token, answered by a 303 to the page to show. */
export const uiAction = (
  operationId: string,
  summary: string,
  parameters?: Array<Record<string, unknown>>,
) => ({
  ...operation({
    operationId,
    tag: 'admin-ui',
    summary,
    security: 'adminSession',
    parameters,
    answer: HTML,
    successStatus: 303,
    errors: [403, 404, 409],
  }),
  requestBody: CSRF_FORM,
});
