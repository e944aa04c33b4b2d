/** Builds OpenAPI operations in the catalog's envelope, so path tables stay short. */
export interface OperationSpec {
  /** Unique name of the operation, for generated clients and links into the viewer (camelCase). */
  operationId: string;
  summary: string;
  tag: string;
  security?: 'apiKey' | 'portalToken' | 'none';
  /** Component schema name of the JSON body, or an inline schema. */
  body?: string | Record<string, unknown>;
  /** Component schema name of `data`, or an inline schema. */
  data?: string | Record<string, unknown>;
  /** Path parameter names. */
  params?: string[];
  query?: Array<{ name: string; description: string }>;
  /** Error statuses beyond the common ones. */
  errors?: number[];
  description?: string;
}

const schemaOf = (s: string | Record<string, unknown>) =>
  typeof s === 'string' ? { $ref: `#/components/schemas/${s}` } : s;

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid request (error envelope)',
  401: 'Missing, unknown or deactivated key or token',
  403: 'The key lacks the permission',
  404: 'Not found',
  409: 'Conflict (duplicate or ambiguous supplierSku, limits)',
  413: 'Body too large',
  415: 'Body is not JSON',
  429: 'Rate limited; see Retry-After',
  500: 'Internal error; details.requestId only',
};

export function operation(spec: OperationSpec): Record<string, unknown> {
  const security = spec.security ?? 'apiKey';
  const statuses = new Set([...(security === 'none' ? [] : [401]), ...(spec.errors ?? [])]);
  if (security === 'apiKey') for (const s of [403, 429, 500]) statuses.add(s);
  const responses: Record<string, unknown> = {
    200: {
      description: 'Success: {errorCode: 0, data}',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['errorCode', 'data'],
            properties: {
              errorCode: { const: 0 },
              data: spec.data ? schemaOf(spec.data) : { type: 'object' },
            },
          },
        },
      },
    },
  };
  for (const status of [...statuses].sort()) {
    responses[status] = {
      description: ERROR_TEXT[status] ?? 'Error',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    };
  }
  const parameters = [
    ...(spec.params ?? []).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
    ...(spec.query ?? []).map((q) => ({
      name: q.name,
      in: 'query',
      required: false,
      description: q.description,
      schema: { type: 'string' },
    })),
  ];
  return {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    ...(security === 'none' ? { security: [] } : { security: [{ [security]: [] }] }),
    ...(parameters.length ? { parameters } : {}),
    ...(spec.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(spec.body) } } } }
      : {}),
    responses,
  };
}
