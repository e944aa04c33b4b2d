import type { GraphQLError, GraphQLFormattedError } from 'graphql';

export const THROTTLED_DOCUMENTATION = 'https://shopify.dev/api/usage/rate-limits';

/**
 * An error raised while resolving, in Shopify's response shape: message, locations, path and
 * `extensions.code` (its own, or the fallback). Validation errors are worded elsewhere
 * (errors/shopify-validation-errors.ts).
 */
export function formatError(error: GraphQLError, fallbackCode: string): GraphQLFormattedError {
  const formatted = error.toJSON();
  const code = typeof formatted.extensions?.code === 'string' ? formatted.extensions.code : fallbackCode;
  return { ...formatted, extensions: { ...formatted.extensions, code } };
}

/** A plain error in Shopify's shape, for failures found before execution. */
export function plainError(
  message: string,
  code: string,
  extra: Partial<GraphQLFormattedError> = {},
): GraphQLFormattedError {
  return { message, ...extra, extensions: { code, ...extra.extensions } };
}
