import { Command } from 'commander';
import type { ShopPreviewDto } from '../../admin/shop-preview.dto.js';
import { previewCsv } from '../../admin/shop-preview.js';
import type { ContextOf } from '../context/cli-context.js';

/**
 * `preview <shop>`: what a shop in shadow would have sent (`GET /admin/shops/{shop}/preview`):
 * the counts, then per product each record's planned calls and changed fields. `--json` prints
 * the answer whole, `--csv` the CSV export (one line per changed field).
 */
export function previewCommand(contextOf: ContextOf): Command {
  return new Command('preview')
    .description("what a shop in shadow would have sent: counts, then each record's calls and field changes")
    .argument('<shop>', '<name>.myshopify.com')
    .option('--json', 'print the API answer as JSON')
    .option('--csv', 'print the preview as CSV')
    .action(async (shop: string, options: { json?: boolean; csv?: boolean }, command: Command) => {
      const { admin, out } = contextOf(command);
      const preview = await admin.get<ShopPreviewDto>(`/admin/shops/${encodeURIComponent(shop)}/preview`);
      if (options.json) {
        out.line(JSON.stringify(preview, null, 2));
        return;
      }
      if (options.csv) {
        for (const line of previewCsv(preview).trimEnd().split('\r\n')) out.line(line);
        return;
      }
      const { creates, patches, deletes, uploads, writeBacks, conflicts, mappingGaps } = preview.counts;
      out.line(
        `${preview.shop} (${preview.mode}): ${creates} creates, ${patches} patches, ${deletes} deletes, ${uploads} uploads, ${writeBacks.total} write-backs planned; ${conflicts} conflicts, ${mappingGaps} mapping gaps`,
      );
      for (const [target, n] of Object.entries(writeBacks.byTarget)) out.line(`  write-back ${target}: ${n}`);
      for (const product of preview.products) {
        out.line(`product ${product.productId} (planned ${product.plannedAt})`);
        for (const record of product.records) {
          const who =
            record.kind === 'upload'
              ? `upload ${record.image?.sourceUrl ?? record.image?.shopifyMediaId ?? ''}${record.supplierSku ? ` for ${record.supplierSku}` : ''}`
              : record.source === 'shopify'
                ? 'shopify (write-back)'
                : record.supplierSku;
          out.line(`  ${who}: ${record.calls.join(', ')}`);
          for (const diff of record.diffs) {
            out.line(`    ${diff.field}: ${JSON.stringify(diff.before)} -> ${JSON.stringify(diff.after)}`);
          }
        }
      }
    });
}
