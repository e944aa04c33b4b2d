import { GraphQLError, type GraphQLFieldResolver } from 'graphql';
import type { AdminContext } from './admin-context.js';

/**
 * The sandbox's default field resolver: reads a field from a plain object or calls it with
 * (args, context); names what is missing. Shared by requests and bulk operations.
 */
export const fieldResolver: GraphQLFieldResolver<unknown, AdminContext> = (source, args, context, info) => {
  const value =
    typeof source === 'object' && source !== null
      ? (source as Record<string, unknown>)[info.fieldName]
      : undefined;
  if (typeof value === 'function') return value.call(source, args, context, info);
  if (value !== undefined) return value;
  throw new GraphQLError(
    `Field '${info.parentType.name}.${info.fieldName}' is not implemented by shopify-sandbox`,
    {
      extensions: { code: 'NOT_IMPLEMENTED' },
    },
  );
};
