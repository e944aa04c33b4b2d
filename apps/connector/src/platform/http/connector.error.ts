import { CONNECTOR_ERROR_STATUS, ConnectorErrorCode } from './connector-error-code.js';

/** The body of every error answer: `{"error": {"code", "message", "requestId", "details"?, "hint"?}}`. */
export interface ConnectorErrorBody {
  error: {
    code: ConnectorErrorCode;
    message: string;
    requestId: string;
    details?: Record<string, unknown>;
    /** The next step, for the codes that have one (platform/causes). */
    hint?: string;
  };
}

/**
 * The connector's one HTTP error: a code (its status comes from the code's table), a message
 * for the caller, optional details and headers. Messages and details never carry secrets.
 */
export class ConnectorError extends Error {
  constructor(
    readonly code: ConnectorErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ConnectorError';
  }

  get status(): number {
    return CONNECTOR_ERROR_STATUS[this.code];
  }

  static storageUnavailable(): ConnectorError {
    return new ConnectorError(
      ConnectorErrorCode.STORAGE_UNAVAILABLE,
      'The delivery could not be stored; nothing was kept. Send it again later.',
      undefined,
      { 'Retry-After': '5' },
    );
  }
}
