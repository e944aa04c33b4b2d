import type { GraphQLError, GraphQLFormattedError } from 'graphql';

export const THROTTLED_DOCUMENTATION = 'https://shopify.dev/api/usage/rate-limits';

/**
 * An error in Shopify's response shape: message, locations, path and `extensions.code`.
 * Validation errors get a code in Shopify's style guessed from graphql-js's message
 * (`undefinedField`, `missingRequiredArguments`, ...); other errors keep their own code.
 */
export function formatError(error: GraphQLError, fallbackCode: string): GraphQLFormattedError {
  const formatted = error.toJSON();
  const code = typeof formatted.extensions?.code === 'string' ? formatted.extensions.code : fallbackCode;
  return { ...formatted, extensions: { ...formatted.extensions, code } };
}

export function validationCode(message: string): string {
  if (/^Cannot query field/.test(message)) return 'undefinedField';
  if (/^Unknown argument/.test(message)) return 'argumentNotAccepted';
  if (/^Field ".*" argument ".*" of type ".*" is required/.test(message)) return 'missingRequiredArguments';
  if (/^Unknown type/.test(message)) return 'undefinedType';
  if (/^Variable ".*" is never used/.test(message)) return 'variableNotUsed';
  if (/^Variable ".*" is not defined/.test(message)) return 'undefinedVariable';
  if (/^Variable ".*" of type ".*" used in position expecting/.test(message)) return 'variableMismatch';
  if (/must have a selection of subfields|must not have a selection/.test(message))
    return 'selectionMismatch';
  if (/^(Expected value of type|Enum ".*" cannot represent|.* cannot represent)/.test(message)) {
    return 'argumentLiteralsIncompatible';
  }
  return 'GRAPHQL_VALIDATION_FAILED';
}

/** A plain error in Shopify's shape, for failures found before execution. */
export function plainError(
  message: string,
  code: string,
  extra: Partial<GraphQLFormattedError> = {},
): GraphQLFormattedError {
  return { message, ...extra, extensions: { code, ...extra.extensions } };
}
