/**
 * What went wrong, one code per kind of refusal. Each code has one HTTP status (`ERROR_STATUS`),
 * so a status and its code cannot disagree.
 */
export const ShopifyErrorCode = {
  /** The body cannot be read (malformed JSON) or a control-API body has the wrong shape. */
  BAD_REQUEST: 'bad_request',
  /** A missing or wrong `X-Shopify-Access-Token` or `X-Sandbox-Control-Token`. */
  UNAUTHORIZED: 'unauthorized',
  /** No such route, API version, shop, product or image. */
  NOT_FOUND: 'not_found',
  /** A known path called with a method it does not take (with an `Allow` header). */
  METHOD_NOT_ALLOWED: 'method_not_allowed',
  /** A control-API change that clashes with the state (a shop domain or token taken). */
  CONFLICT: 'conflict',
  /** A body over the size limit. */
  PAYLOAD_TOO_LARGE: 'payload_too_large',
  /** A well-formed REST body with invalid fields (Shopify's `{"errors": {"field": [...]}}`). */
  UNPROCESSABLE_ENTITY: 'unprocessable_entity',
  /** A bug of the sandbox; answered without details. */
  INTERNAL_ERROR: 'internal_error',
  /** The OAuth token endpoint refuses a request (`{"error", "error_description"}`). */
  OAUTH_REFUSED: 'oauth_refused',
  /** The OAuth token endpoint refuses the client's credentials (`invalid_client`). */
  OAUTH_INVALID_CLIENT: 'oauth_invalid_client',
} as const;
export type ShopifyErrorCode = (typeof ShopifyErrorCode)[keyof typeof ShopifyErrorCode];

/** The HTTP status of each code (Shopify's response codes: https://shopify.dev/docs/api/usage/response-codes). */
export const ERROR_STATUS: Readonly<Record<ShopifyErrorCode, number>> = {
  [ShopifyErrorCode.BAD_REQUEST]: 400,
  [ShopifyErrorCode.UNAUTHORIZED]: 401,
  [ShopifyErrorCode.NOT_FOUND]: 404,
  [ShopifyErrorCode.METHOD_NOT_ALLOWED]: 405,
  [ShopifyErrorCode.CONFLICT]: 409,
  [ShopifyErrorCode.PAYLOAD_TOO_LARGE]: 413,
  [ShopifyErrorCode.UNPROCESSABLE_ENTITY]: 422,
  [ShopifyErrorCode.INTERNAL_ERROR]: 500,
  [ShopifyErrorCode.OAUTH_REFUSED]: 400,
  [ShopifyErrorCode.OAUTH_INVALID_CLIENT]: 401,
};

/** Shopify's answer to a missing or wrong access token. */
export const INVALID_TOKEN_MESSAGE =
  '[API] Invalid API key or access token (unrecognized login or wrong password)';

/** The `errors` member of Shopify's REST error body: a message, or messages per field. */
export type ShopifyErrors = string | Record<string, string | string[]>;

/**
 * The Shopify sandbox's one error type. The exception filter answers it as Shopify's REST Admin
 * API does: the code's status and `{"errors": ...}`.
 */
export class ShopifySandboxError extends Error {
  readonly status: number;

  constructor(
    readonly code: ShopifyErrorCode,
    readonly errors: ShopifyErrors,
    readonly headers: Readonly<Record<string, string>> = {},
    /** Replaces `{"errors": ...}`: the OAuth endpoints answer `{"error", "error_description"}`. */
    private readonly oauthBody?: { error: string; error_description: string },
  ) {
    super(typeof errors === 'string' ? errors : JSON.stringify(errors));
    this.name = 'ShopifySandboxError';
    this.status = ERROR_STATUS[code];
  }

  body(): { errors: ShopifyErrors } | { error: string; error_description: string } {
    return this.oauthBody ?? { errors: this.errors };
  }

  /** An OAuth token endpoint refusal, in the OAuth shape Shopify answers it with. */
  static oauth(error: string, description: string): ShopifySandboxError {
    const code =
      error === 'invalid_client' ? ShopifyErrorCode.OAUTH_INVALID_CLIENT : ShopifyErrorCode.OAUTH_REFUSED;
    return new ShopifySandboxError(
      code,
      `${error}: ${description}`,
      {},
      { error, error_description: description },
    );
  }

  static notFound(): ShopifySandboxError {
    return new ShopifySandboxError(ShopifyErrorCode.NOT_FOUND, 'Not Found');
  }

  static badRequest(message: string): ShopifySandboxError {
    return new ShopifySandboxError(ShopifyErrorCode.BAD_REQUEST, message);
  }

  static unprocessable(errors: Record<string, string[]>): ShopifySandboxError {
    return new ShopifySandboxError(ShopifyErrorCode.UNPROCESSABLE_ENTITY, errors);
  }

  static methodNotAllowed(method: string, allowed: string[]): ShopifySandboxError {
    return new ShopifySandboxError(
      ShopifyErrorCode.METHOD_NOT_ALLOWED,
      `Method ${method} is not allowed here; use ${allowed.join(', ')}`,
      { Allow: allowed.join(', ') },
    );
  }
}
