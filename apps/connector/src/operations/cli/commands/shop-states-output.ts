import type { OverviewDto } from '../../overview/overview.dto.js';
import type { CliOutput } from '../context/cli-context.js';

/**
 * Why: `connector status` without an id prints what `GET /admin/overview` says of each shop, as
 * the web view's overview does: its state, every reason in words (the worst first), and the next
 * step of each (the causes table: words, the page of the web view at the connector's URL, the
 * command).
 */
export function printShopStates(view: OverviewDto, baseUrl: string, out: CliOutput): void {
  if (view.shops.length === 0) out.line('no shop');
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
  // A page of the shops (worst first): say how many were left out, and how every shop stands.
  if (view.total > view.shops.length) {
    const { failing, degraded, healthy } = view.stateCounts;
    out.line(
      `${view.shops.length} of ${view.total} shops shown, worst first (${failing} failing, ${degraded} degraded, ${healthy} healthy): ${baseUrl}/admin/ui?page=2`,
    );
  }
}
