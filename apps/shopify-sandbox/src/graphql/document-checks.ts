import {
  type DocumentNode,
  GraphQLError,
  type GraphQLFormattedError,
  type GraphQLSchema,
  getVariableValues,
  type OperationDefinitionNode,
  parse,
  validate,
} from 'graphql';
import type { Leniency } from '../config/shopify-sandbox.config.js';
import { DocumentIndex } from './errors/document-index.js';
import { locationsOf } from './errors/ruby-error.js';
import { shopifyParseError, shopifyValidationErrors } from './errors/shopify-validation-errors.js';
import { literalIdErrors } from './inputs/literal-ids.js';
import { variableErrors } from './inputs/variable-values.js';

/**
 * The checks a document passes before anything runs, with graphql-ruby's wording (Shopify's
 * Admin API runs on graphql-ruby): parsing, static validation against the schema (with
 * `ID` literals that are not global ids), then the variables.
 */
export function parseDocument(
  query: string,
): { document: DocumentNode } | { errors: GraphQLFormattedError[] } {
  try {
    return { document: parse(query) };
  } catch (error) {
    if (error instanceof GraphQLError) return { errors: [shopifyParseError(error)] };
    return { errors: [{ message: String(error), locations: [] }] };
  }
}

/** Static validation: graphql-js's rules in graphql-ruby's words, then `ID` literals. */
export function validateDocument(
  schema: GraphQLSchema,
  document: DocumentNode,
  leniency: Leniency,
): { index: DocumentIndex; errors: GraphQLFormattedError[] } {
  const index = new DocumentIndex(schema, document);
  const invalid = validate(schema, document);
  if (invalid.length > 0) return { index, errors: shopifyValidationErrors(invalid, index) };
  return { index, errors: leniency.globalIds ? [] : literalIdErrors(document, index) };
}

/** The operation's variables checked and coerced, or graphql-ruby's variable errors. */
export function coerceVariables(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  provided: Record<string, unknown>,
  index: DocumentIndex,
  leniency: Leniency,
): { coerced: Record<string, unknown> } | { errors: GraphQLFormattedError[] } {
  const errors = variableErrors(schema, operation, provided, index, !leniency.globalIds);
  if (errors.length > 0) return { errors };
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], provided);
  if (!coerced.errors) return { coerced: coerced.coerced };
  // graphql-js found what the walk above did not: report it in the same shape.
  return {
    errors: coerced.errors.map((error) => {
      const name = /^Variable "\$([^"]+)"/.exec(error.message)?.[1] ?? '';
      const definition = operation.variableDefinitions?.find((d) => d.variable.name.value === name);
      return {
        message: `Variable $${name} was provided invalid value`,
        locations: definition ? locationsOf(definition) : [],
        extensions: {
          value: provided[name] ?? null,
          problems: [{ path: [], explanation: error.message.replace(/^[^;]*; /, '') }],
        },
      };
    }),
  };
}
