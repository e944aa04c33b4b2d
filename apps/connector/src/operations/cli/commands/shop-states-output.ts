import { DEFAULT_SHOP_PAGE } from '../../admin/shop-page.js';
import type { OverviewDto } from '../../overview/overview.dto.js';
import type { CliOutput } from '../context/cli-context.js';

/**
 * Why: `connector status` without an id prints what `GET /admin/overview` says of each shop, as
 * the web view's overview does: its state, every reason in words (the worst first), and the next
 * step of each (the causes table: words, the page of the web view at the connector's URL, the
 * command).
 */
export function printShopStates(
  view: OverviewDto,
  baseUrl: string,
  out: CliOutput,
  filter: ShopStatesFilter = {},
): void {
  if (
    view.total === 0 &&
    view.stateCounts.failing + view.stateCounts.degraded + view.stateCounts.healthy === 0
  ) {
    out.line('no shop');
    return;
  }
  for (const shop of view.shops) {
    out.line(`${shop.shop}: ${shop.state}`);
    if (shop.state === 'healthy') {
      out.line(`  ${shop.reasons.join('; ')}`);
      continue;
    }
    for (const cause of shop.causes) {
      out.line(`  ${cause.severity === 'failing' ? 'failing' : 'degraded'}: ${cause.text}`);
      const where = [
        cause.next.href === null ? null : `${baseUrl}${cause.next.href}`,
        cause.next.command === null ? null : `$ ${cause.next.command}`,
      ].filter((part): part is string => part !== null);
      out.line(`    next: ${cause.next.text}${where.length > 0 ? ` ${where.join('  ')}` : ''}`);
    }
  }
  // A page of the shops (worst first): which page, how every shop stands, and the next page's command.
  out.line(pageLine(view, filter));
}

/** The filter a page was asked with (repeated in the next page's command). */
export interface ShopStatesFilter {
  state?: string;
  q?: string;
}

/**
 * "shops 1 to 50 of 200, worst first (every shop: 3 failing, 5 degraded, 192 healthy); next
 * page: npm run connector -- status --page 2": the counts are every shop's, before the filter.
 */
export function pageLine(view: OverviewDto, filter: ShopStatesFilter = {}): string {
  const { failing, degraded, healthy } = view.stateCounts;
  const counts = `${failing} failing, ${degraded} degraded, ${healthy} healthy`;
  if (view.shops.length === 0) return `no shop on this page: ${view.total} match, of every shop ${counts}`;
  const first = view.offset + 1;
  const last = view.offset + view.shops.length;
  const line = `shops ${first} to ${last} of ${view.total}, worst first (every shop: ${counts})`;
  if (last >= view.total) return line;
  const args = [
    filter.state === undefined ? null : `--state ${filter.state}`,
    filter.q === undefined ? null : `--q ${quoted(filter.q)}`,
    view.limit === DEFAULT_SHOP_PAGE ? null : `--limit ${view.limit}`,
    // The next page: by offset when the page does not start on a page boundary.
    view.offset % view.limit === 0 ? `--page ${view.offset / view.limit + 2}` : `--offset ${last}`,
  ].filter((part): part is string => part !== null);
  return `${line}; next page: npm run connector -- status ${args.join(' ')}`;
}

/** A value as a shell word: as is when plain, else single-quoted. */
function quoted(value: string): string {
  return /^[\w.@%+=:,/-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}
