import { Command, Option } from 'commander';
import type { ContextOf } from '../context/cli-context.js';

/** The link report as the admin API answers it (`POST /admin/link`), the parts printed here. */
interface LinkReport {
  shop: string;
  dryRun: boolean;
  match: { shopify: string; catalog: string };
  catalog: { records: number; searches: number };
  shopifyProducts: number;
  counts: { linked: number; created: number; updated: number; deleted: number; conflicts: number };
  linked: Array<{ productId: string; records: Array<{ kind: string; skuId: string; supplierSku: string }> }>;
  created: string[];
  updated: string[];
  deleted: string[];
  conflicts: Array<{ productId: string; reason: string }>;
  resyncRunId: string | null;
}

const MATCHES = ['sku:supplierSku', 'sku:gtin', 'barcode:supplierSku', 'barcode:gtin'];

/**
 * `link`: links a catalog that already holds the shop's products (`POST /admin/link`). With
 * `--dry-run` nothing is written: it prints what would be linked (with the records), created,
 * updated and deleted, and the conflicts.
 */
export function linkCommand(contextOf: ContextOf): Command {
  return new Command('link')
    .description("link a pre-filled catalog to the shop's products (--dry-run: only say what it would do)")
    .option('--shop <domain>', 'the shop (when several are configured)')
    .option('--dry-run', 'write nothing: print what would be linked, created, updated and deleted')
    .addOption(new Option('--match <key>', '<Shopify variant field>:<catalog field>').choices(MATCHES))
    .option('--no-resync', 'link only: do not start the resync that creates and updates the rest')
    .option('--json', 'print the API answer as JSON')
    .action(
      async (
        options: { shop?: string; dryRun?: boolean; match?: string; resync: boolean; json?: boolean },
        command: Command,
      ) => {
        const context = contextOf(command);
        const shop = context.shop(options.shop);
        const report = await context.admin.post<LinkReport>('/admin/link', {
          shop: shop.domain,
          match: options.match,
          dryRun: options.dryRun === true ? true : undefined,
          resync: options.resync ? undefined : false,
        });
        if (options.json) return context.out.line(JSON.stringify(report, null, 2));
        printReport(report, context.out.line);
      },
    );
}

function printReport(report: LinkReport, line: (text?: string) => void): void {
  const { counts } = report;
  const verb = report.dryRun ? 'would be' : 'were';
  line(
    `${report.shop}${report.dryRun ? ' (dry run: nothing written)' : ''}: ${report.shopifyProducts} Shopify products, ` +
      `${report.catalog.records} catalog records scanned in ${report.catalog.searches} searches, ` +
      `matched by ${report.match.shopify} = ${report.match.catalog}`,
  );
  line(`  linked     ${counts.linked} (${verb} linked to existing records)`);
  for (const product of report.linked) {
    line(
      `    product ${product.productId}: ${product.records.map((r) => `${r.kind} ${r.skuId} (${r.supplierSku})`).join(', ')}`,
    );
  }
  const list = (ids: string[], total: number) =>
    ids.length > 0 ? `: ${ids.join(', ')}${total > ids.length ? ', ...' : ''}` : '';
  line(
    `  created    ${counts.created} (no record matched: ${report.dryRun ? 'the sync would create them' : 'the sync creates them'})${list(report.created, counts.created)}`,
  );
  line(`  updated    ${counts.updated} (already in the map)${list(report.updated, counts.updated)}`);
  line(
    `  deleted    ${counts.deleted} (gone from Shopify: their records ${verb} deleted)${list(report.deleted, counts.deleted)}`,
  );
  line(`  conflicts  ${counts.conflicts}`);
  for (const conflict of report.conflicts) line(`    product ${conflict.productId}: ${conflict.reason}`);
  if (report.resyncRunId !== null)
    line(`Resync run ${report.resyncRunId} started (npm run connector -- resync shows runs).`);
}
