import type { AdminContext } from '../graphql/admin-context.js';

/** `bulkOperationRunQuery` and `bulkOperationCancel` (bulk mutations, `bulkOperationRunMutation`, are not emulated). */
export const bulkMutations = {
  bulkOperationRunQuery: (args: { query: string; groupObjects?: boolean | null }, ctx: AdminContext) =>
    ctx.bulk.runQuery(ctx, args.query, args.groupObjects ?? false),
  bulkOperationCancel: (args: { id: string }, ctx: AdminContext) => ctx.bulk.cancel(ctx.shop, args.id),
};

/** `bulkOperation(id)` and `currentBulkOperation(type)`. */
export const bulkQueries = {
  bulkOperation: (args: { id: string }, ctx: AdminContext) => ctx.bulk.find(ctx.shop, args.id),
  currentBulkOperation: (args: { type?: string | null }, ctx: AdminContext) =>
    ctx.bulk.current(ctx.shop, args.type ?? 'QUERY', ctx.clientId),
};
