import { Command } from 'commander';
import type { ProductStatusDto as ProductStatus } from '../../admin/product-status.dto.js';
import type { OverviewDto } from '../../overview/overview.dto.js';
import type { CliOutput, ContextOf } from '../context/cli-context.js';
import { printShopStates } from './shop-states-output.js';

/**
 * `status`: the shops' states, why and the next step (`GET /admin/overview`: worst first, 50 a
 * page; `--state`, `--q`, `--limit`, `--offset` or `--page` choose them, as `shops` does). `status <id>`: one
 * product's status from the admin API (`GET /admin/products/{id}`), found by
 * its Shopify product id, a `supplierSku` or a `skuId`: its catalog records (the sku map), its
 * last sync and the calls it made, its last error, why the catalog cannot fully enrich it (its
 * mapping gaps in words, each with the records it touches), the catalog's enrichment status and
 * its write-backs. `--json` prints the answer whole.
 */
export function statusCommand(contextOf: ContextOf): Command {
  return new Command('status')
    .description(
      "show the shops' states (worst first, a page at a time), why and the next step; with an id, a product's status (by Shopify product id, supplierSku or skuId)",
    )
    .argument('[id]', 'a Shopify product id, a supplierSku or a skuId')
    .option('--shop <domain>', 'the shop (when the id is known in several)')
    .option('--json', 'print the API answer as JSON')
    .option('--state <state>', 'only the shops in this state (failing, degraded, healthy)')
    .option('--q <text>', 'only the shops whose domain contains this')
    .option('--limit <n>', 'at most this many shops (default 50)')
    .option('--offset <n>', 'skip this many shops')
    .option('--page <n>', 'the page of --limit shops, from 1')
    .action(async (id: string | undefined, options: StatusOptions, command: Command) => {
      const { admin, out } = contextOf(command);
      if (id === undefined) {
        const { state, q, limit, offset, page } = options;
        const view = await admin.get<OverviewDto>('/admin/overview', { state, q, limit, offset, page });
        if (options.json) out.line(JSON.stringify(view, null, 2));
        else printShopStates(view, admin.baseUrl, out, { state, q });
        return;
      }
      const status = await admin.get<ProductStatus>(`/admin/products/${encodeURIComponent(id)}`, {
        shop: options.shop,
      });
      if (options.json) out.line(JSON.stringify(status, null, 2));
      else print(status, out);
    });
}

/** The options of `status`; the page's are passed to the API as given (it checks them). */
interface StatusOptions {
  shop?: string;
  json?: boolean;
  state?: string;
  q?: string;
  limit?: string;
  offset?: string;
  page?: string;
}

/** Why the catalog cannot fully enrich the product, one reason a line with the records it touches. */
function gapLines(gaps: ProductStatus['mappingGaps'] | undefined): string[] {
  if (!gaps) return ['  mapping gaps: none'];
  const head = `  mapping gaps (${gaps.reasons.length} reason${gaps.reasons.length === 1 ? '' : 's'}, as planned ${gaps.recordedAt})${gaps.blocked ? ': the catalog holds no record of it' : ''}:`;
  return [
    head,
    ...gaps.reasons.map(
      (r) =>
        `    ${r.reason} (${r.records === 0 ? 'no record' : `${r.records} record${r.records === 1 ? '' : 's'}`})`,
    ),
  ];
}

function print(status: ProductStatus, out: CliOutput): void {
  out.line(`${status.shop} product ${status.productId}`);
  out.line(`  records (${status.mapRows?.length ?? 0}):`);
  for (const row of status.mapRows ?? []) {
    const who = row.shopifyVariantId === null ? row.kind : `${row.kind} ${row.shopifyVariantId}`;
    const gaps = row.gaps?.length ? `, ${row.gaps.length} mapping gaps` : '';
    out.line(`    ${who}: ${row.supplierSku} -> ${row.skuId ?? '(no skuId)'} (${row.state}${gaps})`);
  }
  for (const line of gapLines(status.mappingGaps)) out.line(line);
  const sync = status.lastSync;
  if (sync === null || sync === undefined) out.line('  last sync: none recorded');
  else {
    const calls = sync.calls.map((c) => `${c.method} ${c.path} ${c.status ?? '-'}`).join(', ');
    out.line(
      `  last sync: ${sync.finishedAt} (${sync.reason}) ${sync.outcome}${sync.detail ? `: ${sync.detail}` : ''}`,
    );
    out.line(
      `    ${sync.calls.length} catalog call${sync.calls.length === 1 ? '' : 's'}${calls ? `: ${calls}` : ''}`,
    );
  }
  const error = status.lastError;
  out.line(
    error
      ? `  last error: ${error.at} ${error.code}: ${error.message}${error.failureId ? ` (failure #${error.failureId}, ${error.state})` : ''}`
      : '  last error: none',
  );
  const catalog = status.catalog;
  if (catalog === null || catalog === undefined) out.line('  catalog: no record yet');
  else if (catalog.error) out.line(`  catalog ${catalog.skuId}: could not be read (${catalog.error})`);
  else {
    out.line(
      `  catalog ${catalog.skuId}: enrichment ${catalog.enrichmentStatus ?? 'not run yet'}, ${attributeWords(catalog.attributeSummary)}`,
    );
  }
  out.line(
    status.writeBacks === null || status.writeBacks === undefined
      ? '  write-backs: not recorded'
      : `  write-backs: ${status.writeBacks.length}`,
  );
}

/**
 * The catalog's attribute summary in words: "7 of 12 enrichable attributes completed (58 %)"
 * (the spec's `enrichableTotal`, `enrichableCompleted`, `enrichableCompletionRate`).
 */
export function attributeWords(summary: Record<string, number> | null | undefined): string {
  const total = summary?.enrichableTotal;
  const done = summary?.enrichableCompleted;
  if (typeof total !== 'number' || typeof done !== 'number') return 'no attribute summary';
  const rate = summary?.enrichableCompletionRate;
  const share = typeof rate === 'number' ? rate : total === 0 ? 0 : (done / total) * 100;
  return `${done} of ${total} enrichable attribute${total === 1 ? '' : 's'} completed (${Math.round(share)} %)`;
}
