/**
 * The building blocks of the connector's OpenAPI document: one operation from a short spec,
 * the common error answers, query parameters.
 */
/** One operation: its id, what it answers, and the errors beyond the common 500. */
export interface OperationSpec {
  operationId: string;
  tag: 'webhooks' | 'install' | 'health' | 'admin' | 'admin-ui' | 'metrics' | 'docs';
  summary: string;
  description?: string;
  security?: 'adminToken' | 'shopifyHmac' | 'adminSession';
  parameters?: Array<Record<string, unknown>>;
  /** The JSON body it takes (a schema). */
  body?: Record<string, unknown>;
  /** Component schema of the 2xx JSON answer, or a media type and schema. */
  answer: string | { mediaType: string; schema: Record<string, unknown> };
  /** The success status when not 200 (a redirect: 303). */
  successStatus?: number;
  /** Error statuses, each answered with ErrorBody. */
  errors?: number[];
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Bad request (details name the parameter or header)',
  401: 'Missing or wrong credential',
  404: 'Not found',
  403: 'Refused: the form lacks its session CSRF token, or comes from another origin; an install granting too few scopes',
  409: 'The failure is not open, the resync run has ended, the shop is configured in the environment, or already migrated',
  410: 'Refused: a bot-like User-Agent (the install begins in a browser)',
  413: 'Payload too large',
  422: 'Signed, but not a usable product payload (kept)',
  500: 'Internal error: the correlation id only',
  503: 'Unavailable (storage down; admin API disabled without CONNECTOR_ADMIN_TOKEN)',
};

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export function operation(spec: OperationSpec): Record<string, unknown> {
  const answer =
    typeof spec.answer === 'string'
      ? { mediaType: 'application/json', schema: ref(spec.answer) }
      : spec.answer;
  const errors = [
    ...new Set([
      ...(spec.security === 'adminToken' || spec.security === 'adminSession' ? [401, 503] : []),
      ...(spec.errors ?? []),
      500,
    ]),
  ];
  const responses: Record<string, unknown> = {
    [spec.successStatus ?? 200]:
      spec.successStatus === 303
        ? { description: 'Done: see the page in Location' }
        : { description: 'Success', content: { [answer.mediaType]: { schema: answer.schema } } },
  };
  for (const status of errors.sort()) {
    responses[status] = {
      description: ERROR_TEXT[status] ?? 'Error',
      // The web view answers its errors as pages (the sign-in form for a 401).
      content:
        spec.tag === 'admin-ui'
          ? { 'text/html': { schema: { type: 'string' } } }
          : { 'application/json': { schema: ref('ErrorBody') } },
    };
  }
  return {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    security: spec.security ? [{ [spec.security]: [] }] : [],
    ...(spec.parameters ? { parameters: spec.parameters } : {}),
    ...(spec.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: spec.body } } } }
      : {}),
    responses,
  };
}

export const query = (
  name: string,
  description: string,
  schema: Record<string, unknown> = { type: 'string' },
) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
});
