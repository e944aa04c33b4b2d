import type { ASTNode, GraphQLError, GraphQLFormattedError } from 'graphql';
import { Kind } from 'graphql';
import type { DocumentIndex } from './document-index.js';
import { rubyError } from './ruby-error.js';
import { VALIDATION_RULES } from './validation-rules.js';

/**
 * graphql-js validation errors in the words, paths and `extensions` of graphql-ruby's static
 * validation, which Shopify's Admin API runs on (`Field 'colour' doesn't exist on type
 * 'Product'`, code `undefinedField`). Missing arguments of one field become one error, as
 * graphql-ruby reports them. An error no rule knows keeps graphql-js's message with code
 * `validationFailed`.
 */
export function shopifyValidationErrors(
  errors: readonly GraphQLError[],
  index: DocumentIndex,
): GraphQLFormattedError[] {
  const result: Array<GraphQLFormattedError | ASTNode> = [];
  const missingArguments = new Map<ASTNode, string[]>();
  for (const error of errors) {
    const node = error.nodes?.[0];
    const missing = /^(?:Field|Directive) "@?[^"]+" argument "([^"]+)" of type "[^"]+" is required/.exec(
      error.message,
    );
    if (missing && node) {
      const names = missingArguments.get(node) ?? [];
      if (names.length === 0) result.push(node);
      missingArguments.set(node, [...names, missing[1]]);
      continue;
    }
    result.push(translate(error, index));
  }
  return result.map((item) => ('kind' in item ? missingArgumentsError(item, missingArguments, index) : item));
}

function missingArgumentsError(node: ASTNode, missing: Map<ASTNode, string[]>, index: DocumentIndex) {
  const names = (missing.get(node) ?? []).join(', ');
  const kind = node.kind === Kind.DIRECTIVE ? 'Directive' : 'Field';
  const name = 'name' in node && node.name ? node.name.value : '';
  return rubyError(`${kind} '${name}' is missing required arguments: ${names}`, node, index.path(node), {
    code: 'missingRequiredArguments',
    className: kind,
    name,
    arguments: names,
  });
}

function translate(error: GraphQLError, index: DocumentIndex): GraphQLFormattedError {
  const node = error.nodes?.[0];
  const path = index.path(node);
  for (const [pattern, build] of VALIDATION_RULES) {
    const m = pattern.exec(error.message);
    if (m) return build({ m, error, index, node, path });
  }
  return rubyError(error.message, node, path, { code: 'validationFailed' });
}

/** graphql-ruby's parser error: `Parse error on "}" (RCURLY) at [1, 10]`; no `extensions`. */
export function shopifyParseError(error: GraphQLError): GraphQLFormattedError {
  const location = error.locations?.[0];
  const found = /(?:found|Unexpected) (.+)\.$/.exec(error.message)?.[1];
  if (!location || found === '<EOF>') return { message: 'Unexpected end of document', locations: [] };
  const at = `[${location.line}, ${location.column}]`;
  const token = found ? tokenOf(found) : undefined;
  const message = token
    ? `Parse error on ${JSON.stringify(token.value)} (${token.name}) at ${at}`
    : `Parse error on ${error.message.replace(/^Syntax Error: /, '').replace(/\.$/, '')} at ${at}`;
  return { message, locations: [location] };
}

const PUNCTUATORS: Record<string, string> = {
  '{': 'LCURLY',
  '}': 'RCURLY',
  '(': 'LPAREN',
  ')': 'RPAREN',
  '[': 'LBRACKET',
  ']': 'RBRACKET',
  ':': 'COLON',
  $: 'VAR_SIGN',
  '!': 'BANG',
  '=': 'EQUALS',
  '@': 'DIR_SIGN',
  '...': 'ELLIPSIS',
  '|': 'PIPE',
  '&': 'AMP',
};
const KEYWORDS = ['query', 'mutation', 'subscription', 'fragment', 'on', 'true', 'false', 'null'];

/** A graphql-js token description (`"}"`, `Name "shop"`, `Int "1"`) as graphql-ruby's token. */
function tokenOf(described: string): { value: string; name: string } | undefined {
  const punctuator = /^"(.+)"$/.exec(described)?.[1];
  if (punctuator && PUNCTUATORS[punctuator]) return { value: punctuator, name: PUNCTUATORS[punctuator] };
  const typed = /^(Name|Int|Float|String|BlockString) "(.*)"$/.exec(described);
  if (!typed) return undefined;
  const [, kind, value] = typed;
  if (kind === 'Name') return { value, name: KEYWORDS.includes(value) ? value.toUpperCase() : 'IDENTIFIER' };
  return { value, name: kind === 'BlockString' ? 'STRING' : kind.toUpperCase() };
}
