import { Command } from 'commander';
import type { PushNowResult } from '../../../write-back/push/push-now.service.js';
import type { ContextOf } from '../context/cli-context.js';

/**
 * `write-back <productId> [--shop <domain>] [--dry-run]` (the shop: needed only when several are served): runs one product's write-back now
 * (`POST /admin/products/{id}/write-back`); `--dry-run` prints the mutations it would send (each
 * target's value before and after) and sends nothing. `--json` prints the answer whole.
 */
export function writeBackCommand(contextOf: ContextOf): Command {
  return new Command('write-back')
    .description("run a product's write-back to Shopify now, or with --dry-run print what it would send")
    .argument('<productId>', 'the Shopify product id')
    .option('--shop <domain>', 'the shop (when several are configured)')
    .option('--dry-run', 'print the planned mutations, send nothing')
    .option('--json', 'print the API answer as JSON')
    .action(
      async (
        productId: string,
        options: { shop?: string; dryRun?: boolean; json?: boolean },
        command: Command,
      ) => {
        const context = contextOf(command);
        const { admin, out } = context;
        const answer = await admin.post<PushNowResult>(
          `/admin/products/${encodeURIComponent(productId)}/write-back`,
          { shop: context.shop(options.shop).domain, dryRun: options.dryRun ? 'true' : 'false' },
        );
        if (options.json) {
          out.line(JSON.stringify(answer, null, 2));
          return;
        }
        const what = answer.dryRun ? 'dry run' : answer.mode === 'shadow' ? 'shadow: planned' : 'written';
        out.line(
          `${answer.shop} product ${answer.productId} (${what}): ${answer.written} written, ${answer.planned.length} mutations planned, ${answer.conflicts} conflicts, ${answer.skipped} skipped, ${answer.failed} failed`,
        );
        for (const mutation of answer.planned) {
          out.line(`  ${mutation.method} ${mutation.path} (${mutation.kind})`);
          for (const target of Object.keys(mutation.after ?? {}))
            out.line(
              `    ${target}: ${JSON.stringify(mutation.before?.[target] ?? null)} -> ${JSON.stringify(mutation.after?.[target] ?? null)}`,
            );
        }
      },
    );
}
