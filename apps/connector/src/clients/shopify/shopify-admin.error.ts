import {
  GraphqlQueryError,
  HttpMaxRetriesError,
  HttpRequestError,
  HttpResponseError,
  HttpRetriableError,
} from '@shopify/shopify-api';

/** What went wrong talking to a shop's Admin API. */
export const ShopifyErrorCode = {
  UNAUTHORIZED: 'shopify_unauthorized',
  FORBIDDEN: 'shopify_forbidden',
  SHOP_UNAVAILABLE: 'shopify_shop_unavailable',
  THROTTLED: 'shopify_throttled',
  UNAVAILABLE: 'shopify_unavailable',
  NETWORK: 'shopify_network_error',
  INVALID_QUERY: 'shopify_invalid_query',
  ACCESS_DENIED: 'shopify_access_denied',
  MAX_COST_EXCEEDED: 'shopify_max_cost_exceeded',
  GRAPHQL: 'shopify_graphql_error',
  HTTP: 'shopify_http_error',
} as const;
export type ShopifyErrorCode = (typeof ShopifyErrorCode)[keyof typeof ShopifyErrorCode];

/**
 * An Admin API failure, classified: `retryable` says whether the same call may succeed later
 * (throttling, 5xx, network) or needs a person (revoked token, missing scope, a bad query).
 * The message never holds the access token.
 */
export class ShopifyAdminError extends Error {
  constructor(
    readonly code: ShopifyErrorCode,
    message: string,
    readonly retryable: boolean,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'ShopifyAdminError';
  }

  /** Classifies whatever `@shopify/shopify-api` threw. */
  static from(error: unknown, shop: string): ShopifyAdminError {
    if (error instanceof ShopifyAdminError) return error;
    if (error instanceof GraphqlQueryError) return fromGraphql(error, shop);
    if (error instanceof HttpRetriableError || error instanceof HttpMaxRetriesError) {
      return new ShopifyAdminError(ShopifyErrorCode.UNAVAILABLE, `${shop}: ${error.message}`, true);
    }
    if (error instanceof HttpResponseError) return fromStatus(error.response.code, error.message, shop);
    if (error instanceof HttpRequestError) {
      return new ShopifyAdminError(ShopifyErrorCode.NETWORK, `${shop}: ${error.message}`, true);
    }
    const message = error instanceof Error ? error.message : String(error);
    return new ShopifyAdminError(ShopifyErrorCode.NETWORK, `${shop}: ${message}`, true);
  }
}

function fromStatus(status: number, message: string, shop: string): ShopifyAdminError {
  const text = `${shop}: Admin API answered ${status}`;
  if (status === 401)
    return new ShopifyAdminError(ShopifyErrorCode.UNAUTHORIZED, `${text} (token refused)`, false, status);
  if (status === 403)
    return new ShopifyAdminError(ShopifyErrorCode.FORBIDDEN, `${text} (forbidden)`, false, status);
  if (status === 402 || status === 404 || status === 423) {
    return new ShopifyAdminError(
      ShopifyErrorCode.SHOP_UNAVAILABLE,
      `${text} (shop frozen, locked or gone)`,
      false,
      status,
    );
  }
  if (status === 429 || status >= 500)
    return new ShopifyAdminError(ShopifyErrorCode.UNAVAILABLE, text, true, status);
  return new ShopifyAdminError(ShopifyErrorCode.HTTP, `${text}: ${message.slice(0, 300)}`, false, status);
}

function fromGraphql(error: GraphqlQueryError, shop: string): ShopifyAdminError {
  const errors =
    (error.body?.errors as { graphQLErrors?: GraphqlErrorEntry[] } | undefined)?.graphQLErrors ?? [];
  const first = errors[0];
  const code = first?.extensions?.code;
  const message = `${shop}: ${first?.message ?? error.message}`;
  switch (code) {
    case 'THROTTLED':
      return new ShopifyAdminError(ShopifyErrorCode.THROTTLED, message, true, 200);
    case 'ACCESS_DENIED':
      return new ShopifyAdminError(ShopifyErrorCode.ACCESS_DENIED, message, false, 200);
    case 'MAX_COST_EXCEEDED':
      return new ShopifyAdminError(ShopifyErrorCode.MAX_COST_EXCEEDED, message, false, 200);
    case 'INTERNAL_SERVER_ERROR':
      return new ShopifyAdminError(ShopifyErrorCode.UNAVAILABLE, message, true, 200);
    default:
      return new ShopifyAdminError(
        first?.locations ? ShopifyErrorCode.INVALID_QUERY : ShopifyErrorCode.GRAPHQL,
        message,
        false,
        200,
      );
  }
}

interface GraphqlErrorEntry {
  message?: string;
  locations?: unknown;
  extensions?: { code?: string };
}
