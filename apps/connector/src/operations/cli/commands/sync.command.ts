import { Command } from 'commander';
import type { ProductSyncPlanDto, ProductSyncQueuedDto } from '../../admin/product-sync.dto.js';
import type { ContextOf } from '../context/cli-context.js';

/**
 * Why: `sync <productId> [--shop] [--dry-run]`, the CLI's `POST /admin/products/{id}/sync`: queues
 * the product's sync now, or with `--dry-run` prints the calls it would send (method, path, and
 * each record's changed fields), nothing sent. `--json` prints the answer whole.
 */
export function syncCommand(contextOf: ContextOf): Command {
  return new Command('sync')
    .description("a product's sync now; --dry-run prints its plan instead, nothing sent")
    .argument('<productId>', 'Shopify product id')
    .option('--shop <shop>', 'the shop, when the connector serves several')
    .option('--dry-run', 'print the plan, execute nothing')
    .option('--json', 'print the API answer as JSON')
    .action(
      async (
        productId: string,
        options: { shop?: string; dryRun?: boolean; json?: boolean },
        command: Command,
      ) => {
        const { admin, out } = contextOf(command);
        const answer = await admin.post<ProductSyncPlanDto | ProductSyncQueuedDto>(
          `/admin/products/${encodeURIComponent(productId)}/sync`,
          { shop: options.shop, dryRun: options.dryRun ? 'true' : undefined },
        );
        if (options.json) {
          out.line(JSON.stringify(answer, null, 2));
          return;
        }
        if (!answer.dryRun) {
          out.line(`${answer.shop} product ${answer.productId}: sync queued (status: ${answer.status})`);
          return;
        }
        const { creates, patches, deletes } = answer.counts;
        out.line(
          `${answer.shop} product ${answer.productId} (dry run): ${creates} creates, ${patches} patches, ${deletes} deletes would be sent`,
        );
        for (const call of answer.calls) {
          out.line(`  ${call.method} ${call.path}${call.supplierSku ? ` (${call.supplierSku})` : ''}`);
          for (const field of changedFields(call.before, call.after)) out.line(`    ${field}`);
        }
      },
    );
}

/** Each field that differs between a record before and after: `name: "a" -> "b"`. */
export function changedFields(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): string[] {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].sort();
  return keys
    .filter((key) => JSON.stringify(before?.[key] ?? null) !== JSON.stringify(after?.[key] ?? null))
    .map(
      (key) => `${key}: ${JSON.stringify(before?.[key] ?? null)} -> ${JSON.stringify(after?.[key] ?? null)}`,
    );
}
