import { Command } from 'commander';
import type { MappingGapPageDto } from '../../admin/mapping-gaps.dto.js';
import type { CliOutput, ContextOf } from '../context/cli-context.js';
import { integerOption } from './failures.command.js';

/**
 * `mapping-gaps`: a shop's products the mapping cannot fully map (`GET /admin/mapping-gaps`):
 * every reason in words with how many products it applies to, then a page of the products (id,
 * title, reasons); `--reason` lists those of one reason; `--json` prints the API's answer.
 */
export function mappingGapsCommand(contextOf: ContextOf): Command {
  return new Command('mapping-gaps')
    .description("list a shop's products the mapping cannot fully map, grouped by reason")
    .option('--shop <domain>', 'the shop (when the connector serves several)')
    .option('--reason <words>', 'only the products with this reason (its words, as listed)')
    .option('--limit <n>', 'how many products (1-500)', integerOption, 50)
    .option('--offset <n>', 'skip this many', integerOption, 0)
    .option('--json', 'print the API answer as JSON')
    .action(
      async (
        options: { shop?: string; reason?: string; limit: number; offset: number; json?: boolean },
        command: Command,
      ) => {
        const { admin, out } = contextOf(command);
        const page = await admin.get<MappingGapPageDto>('/admin/mapping-gaps', {
          shop: options.shop,
          reason: options.reason,
          limit: options.limit,
          offset: options.offset,
        });
        if (options.json) out.line(JSON.stringify(page, null, 2));
        else print(page, out);
      },
    );
}

function print(page: MappingGapPageDto, out: CliOutput): void {
  const count = (n: number) => `${n} product${n === 1 ? '' : 's'}`;
  out.line(`${page.shop}: ${count(page.products)} cannot be fully enriched`);
  for (const reason of page.reasons) out.line(`  ${count(reason.products)}: ${reason.reason}`);
  if (page.items.length === 0) return;
  out.line(page.reason === null ? 'products:' : `products with "${page.reason}":`);
  for (const product of page.items) {
    out.line(
      `  ${product.productId} ${product.title ?? '(no title)'}${product.blocked ? ' (not in the catalog)' : ''}`,
    );
    for (const reason of product.reasons) out.line(`    ${reason.reason}`);
  }
  const last = page.offset + page.items.length;
  out.line(
    `${page.offset + 1}-${last} of ${page.total}${last < page.total ? ` (more: --offset ${last})` : ''}`,
  );
}
