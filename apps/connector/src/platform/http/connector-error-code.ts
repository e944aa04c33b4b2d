/** Every `error.code` the connector answers with (README, "Errors"). */
export const ConnectorErrorCode = {
  MISSING_SIGNATURE: 'missing_signature',
  INVALID_SIGNATURE: 'invalid_signature',
  MISSING_HEADER: 'missing_header',
  INVALID_HEADER: 'invalid_header',
  UNKNOWN_SHOP: 'unknown_shop',
  MALFORMED_JSON: 'malformed_json',
  INVALID_PAYLOAD: 'invalid_payload',
  PAYLOAD_TOO_LARGE: 'payload_too_large',
  STORAGE_UNAVAILABLE: 'storage_unavailable',
  NOT_READY: 'not_ready',
  NOT_FOUND: 'not_found',
  METHOD_NOT_ALLOWED: 'method_not_allowed',
  BAD_REQUEST: 'bad_request',
  UNAUTHORIZED: 'unauthorized',
  ADMIN_DISABLED: 'admin_disabled',
  FAILURE_NOT_OPEN: 'failure_not_open',
  RUN_NOT_RUNNING: 'run_not_running',
  INTERNAL_ERROR: 'internal_error',
} as const;
export type ConnectorErrorCode = (typeof ConnectorErrorCode)[keyof typeof ConnectorErrorCode];

/** The HTTP status of each code: the one place a status is chosen. */
export const CONNECTOR_ERROR_STATUS: Readonly<Record<ConnectorErrorCode, number>> = {
  missing_signature: 401,
  invalid_signature: 401,
  missing_header: 400,
  invalid_header: 400,
  unknown_shop: 404,
  malformed_json: 400,
  invalid_payload: 422,
  payload_too_large: 413,
  storage_unavailable: 503,
  not_ready: 503,
  not_found: 404,
  method_not_allowed: 405,
  bad_request: 400,
  unauthorized: 401,
  admin_disabled: 503,
  failure_not_open: 409,
  run_not_running: 409,
  internal_error: 500,
};
