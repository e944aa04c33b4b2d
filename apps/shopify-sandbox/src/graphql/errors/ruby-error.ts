import { type ASTNode, type GraphQLFormattedError, getLocation } from 'graphql';

/** An error in graphql-ruby's shape: message, locations, path, extensions (with `code`). */
export function rubyError(
  message: string,
  node: ASTNode | undefined,
  path: string[] | undefined,
  extensions: Record<string, unknown>,
): GraphQLFormattedError {
  const error: { message: string; locations: Array<{ line: number; column: number }>; path?: string[] } = {
    message,
    locations: node ? locationsOf(node) : [],
  };
  if (path) error.path = path;
  return { ...error, extensions };
}

/** graphql-ruby's `locations` of a node: its line and column. */
export function locationsOf(node: ASTNode): Array<{ line: number; column: number }> {
  return node.loc ? [getLocation(node.loc.source, node.loc.start)] : [];
}
