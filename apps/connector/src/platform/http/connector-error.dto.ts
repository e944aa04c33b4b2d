import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiResponse, ApiSchema } from '@nestjs/swagger';
import { ConnectorErrorCode } from './connector-error-code.js';

/** Why: the inner object of every error answer, declared once for the OpenAPI document. */
@ApiSchema({ name: 'ErrorDetail' })
export class ConnectorErrorDetailDto {
  @ApiProperty({ enum: Object.values(ConnectorErrorCode) })
  code!: ConnectorErrorCode;

  @ApiProperty()
  message!: string;

  @ApiProperty({ description: 'Correlation id, also in X-Request-Id.' })
  requestId!: string;

  @ApiProperty({
    required: false,
    type: Object,
    description: 'A 400 names the wrong field in `parameter` and lists them all in `fields`.',
  })
  details?: Record<string, unknown>;

  @ApiProperty({
    required: false,
    description:
      "The next step, for the codes that have one (e.g. `storage_unavailable`, `unauthorized`, `internal_error`): the same words as the overview's causes.",
  })
  hint?: string;
}

/** Why: `{"error": {...}}`, the body of every error answer (ConnectorExceptionFilter writes it). */
@ApiSchema({ name: 'ErrorBody' })
export class ConnectorErrorBodyDto {
  @ApiProperty({ type: ConnectorErrorDetailDto })
  error!: ConnectorErrorDetailDto;
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Bad request (details name the parameter or header)',
  401: 'Missing or wrong credential',
  403: 'Refused: the form lacks its session CSRF token, or comes from another origin; an install granting too few scopes',
  404: 'Not found',
  409: 'The failure is not open, the resync run has ended, the shop is configured in the environment, or already migrated',
  410: 'Refused: a bot-like User-Agent (the install begins in a browser)',
  413: 'Payload too large',
  422: 'Signed, but not a usable product payload (kept)',
  429: 'Too many failed authentications from this address: wait for Retry-After (seconds)',
  500: 'Internal error: the correlation id only',
  503: 'Unavailable (storage down; admin API disabled without CONNECTOR_ADMIN_TOKEN)',
};

/**
 * Why: a route declares the error statuses it answers beside its handler; each is documented
 * with the connector's error body (the 500 always is).
 */
export function ApiConnectorErrors(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...[...new Set([...statuses, 500])]
      .sort()
      .map((status) =>
        ApiResponse({ status, description: ERROR_TEXT[status] ?? 'Error', type: ConnectorErrorBodyDto }),
      ),
  );
}

/**
 * Why: the web view (`/admin/ui`) answers the same errors as pages (`text/html`: the sign-in
 * form for a 401), so its routes declare them with the same words and an HTML body.
 */
export function ApiConnectorErrorPages(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...[...new Set([...statuses, 500])].sort().map((status) =>
      ApiResponse({
        status,
        description: ERROR_TEXT[status] ?? 'Error',
        content: { 'text/html': { schema: { type: 'string' } } },
      }),
    ),
  );
}
