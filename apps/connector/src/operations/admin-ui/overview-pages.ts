import type { NextStep } from '../../platform/causes/causes.js';
import type { ShopListEntryDto } from '../admin/shop-list.dto.js';
import { type OverviewChart, windowWords } from '../overview/chart-window.js';
import type { OverviewDto } from '../overview/overview.dto.js';
import { minutes } from '../overview/shop-health.js';
import { svgChart } from './svg-chart.js';
import { esc, page, scrollTable } from './ui-html.js';
import { overviewGapsSection } from './ui-mapping-gap-pages.js';
import { type ListContext, productLink } from './ui-product-link.js';
import { runTimesSection } from './ui-run-pages.js';
import { timeAgo } from './ui-time.js';
import { inWords, targetInWords } from './ui-words.js';

const percent = (share: number | null) => (share === null ? '—' : `${Math.round(share * 100)} %`);
const duration = (seconds: number | null) => (seconds === null ? '—' : minutes(seconds));

/**
 * The poll lag the card shows: its chart's value now (the same measure, the time since the last
 * poll that finished its work), else the overview's own figure.
 */
function pollLag(view: OverviewDto, charts: readonly OverviewChart[]): number | null {
  const lag = charts.find((c) => c.id === 'chart-lag')?.series[0]?.values.at(-1);
  return lag === undefined ? view.enrichmentLagSeconds : lag;
}

/** The overview page: each shop's state and why, the numbers now, the recent minutes' charts. */
export function overviewPage(
  view: OverviewDto,
  charts: readonly OverviewChart[],
  csrf: string,
  paging: { above: string; below: string } = { above: '', below: '' },
): string {
  const shopRows = view.shops
    .map(
      (
        s,
      ) => `<tr data-shop="${esc(s.shop)}"><th scope="row">${esc(s.shop)} <a class="muted" href="/admin/ui/syncs?shop=${encodeURIComponent(s.shop)}">syncs</a></th>
<td class="state-${esc(s.state)}">${esc(s.state)}</td><td class="reasons">${esc(s.reasons.join('; '))}</td>${nextCell(s.next)}
<td class="opt"><a href="/admin/ui/failures?shop=${encodeURIComponent(s.shop)}">${esc(sum(s.openFailures))}</a></td>
<td class="opt"><a href="/admin/ui/deliveries?shop=${encodeURIComponent(s.shop)}&amp;state=received">${esc(s.backlog)} (${esc(duration(s.backlogAgeSeconds))})</a></td>
<td class="mapping-gap-count opt"><a href="/admin/ui/mapping-gaps?shop=${encodeURIComponent(s.shop)}">${esc(s.mappingGaps.products)}</a></td><td class="opt">${esc(percent(s.costBucketUse))}</td></tr>`,
    )
    .join('');
  const backlog = view.syncBacklog;
  const oldest = view.syncBacklogAgeSeconds ?? -1;
  const calls = view.catalog.reduce((total, c) => total + c.callsLastMinute, 0);
  const budget = view.catalog.reduce((total, c) => total + c.budgetPerMinute, 0);
  const kinds = Object.entries(view.openFailuresByKind);
  const figures = [
    ['Deliveries in the last minute', String(view.deliveriesLastMinute), '/admin/ui/deliveries?hours=1'],
    [
      'Sync backlog (oldest)',
      `${backlog} (${duration(oldest < 0 ? null : oldest)})`,
      '/admin/ui/deliveries?state=received',
    ],
    [
      'Catalog budget used',
      budget > 0 ? `${calls} / ${budget} a minute` : '—',
      '/admin/ui/catalog-calls?hours=1',
    ],
    ['Enrichment lag', duration(pollLag(view, charts)), '/admin/ui/enrichment-polls?hours=24'],
    ['Write-backs in the last hour', String(view.writeBacksLastHour), '/admin/ui/write-backs?hours=1'],
    [
      'Open failures',
      kinds.length === 0
        ? '0'
        : kinds.map(([kind, count]) => `${count} ${inWords('jobKind', kind)}`).join(', '),
      '/admin/ui/failures',
    ],
  ]
    .map(
      ([label, value, href]) => `<li><a href="${href}">${esc(label)}<strong>${esc(value)}</strong></a></li>`,
    )
    .join('');
  const chartFigures = charts
    .map(
      (c) =>
        `<figure>${svgChart(c)}<figcaption><a href="${esc(c.href)}">${esc(c.title)}</a></figcaption></figure>`,
    )
    .join('');
  return page(
    'Overview',
    `<h2>Shops</h2>${paging.above}${scrollTable(
      `<table><thead><tr><th scope="col">Shop</th><th scope="col">State</th><th scope="col">Why</th><th scope="col">Next step</th><th scope="col" class="opt">Open failures</th><th scope="col" class="opt">Sync backlog (oldest)</th><th scope="col" class="opt">Mapping gaps</th><th scope="col" class="opt">Shopify cost bucket</th></tr></thead>
<tbody>${shopRows || '<tr><td colspan="8" class="muted">No shop.</td></tr>'}</tbody></table>`,
      'Shop states',
    )}${paging.below}
<p class="muted">Failing: the job queue down, needs re-authorisation, uninstalled, paused by an operator, mapping invalid, the catalog answering 5xx to (or not answering) half the product writes or more (last 5 minutes), or a sync backlog older than its threshold (CONNECTOR_OVERVIEW_BACKLOG_FAILING_MS, 5 minutes by default). Degraded: 5xx answers, no answers or 429s to a tenth of the calls or more, the catalog breaker open, no enrichment poll finished for more than twice its interval, the job queue's state lost and repaired in the last 15 minutes, open failures, or more of its products with mapping gaps than CONNECTOR_MAPPING_GAP_DEGRADED_SHARE (10 % by default).</p>
${overviewGapsSection(view.shops)}
${runTimesSection(view.shops, Date.parse(view.at))}
<h2>Now</h2><ul class="cards">${figures}</ul>
<h2>${esc(chartsHeading(charts))}</h2><div class="charts">${chartFigures}</div>`,
    csrf,
  );
}

/** The shops page: auth state, mode, catalog key, webhook subscriptions. */
export function shopsPage(
  shops: readonly ShopListEntryDto[],
  csrf: string,
  extra: string,
  now: number,
  paging: { above: string; below: string } = { above: '', below: '' },
): string {
  const rows = shops
    .map(
      (
        s,
      ) => `<tr data-shop="${esc(s.shop)}"><th scope="row">${esc(s.shop)} <a class="muted" href="/admin/ui/syncs?shop=${encodeURIComponent(s.shop)}">syncs</a></th><td class="opt">${esc(s.source)}</td>
<td class="auth">${esc(s.state)}${s.stateReason ? ` <span class="muted">(${esc(s.stateReason)})</span>` : ''}</td>
<td class="opt">${esc(s.authKind)}</td><td class="mode">${esc(s.mode)}${s.modePinned ? ' (pinned)' : ''}</td>
<td class="opt">${s.catalogKeySet ? 'set' : '<span class="error">not set</span>'}</td>
<td class="opt">${s.subscriptions === null ? '<span class="muted">not checked yet</span>' : esc(s.subscriptions.join(', '))}${
        s.subscriptionsCheckedAt
          ? `<br><span class="muted">checked ${timeAgo(s.subscriptionsCheckedAt, now)}</span>`
          : ''
      }</td><td>${esc(s.nextStep ?? '')}</td></tr>`,
    )
    .join('');
  return page(
    'Shops',
    paging.above +
      scrollTable(
        `<table><thead><tr><th scope="col">Shop</th><th scope="col" class="opt">Source</th><th scope="col">Auth state</th><th scope="col" class="opt">Auth</th><th scope="col">Mode</th><th scope="col" class="opt">Catalog key</th><th scope="col" class="opt">Webhook subscriptions</th><th scope="col">Next step</th></tr></thead>
<tbody>${rows || '<tr><td colspan="8" class="muted">No shop.</td></tr>'}</tbody></table>`,
        'Shops',
      ) +
      paging.below +
      extra,
    csrf,
  );
}

/** "Last 35 minutes": the charts' window (they share one). */
function chartsHeading(charts: readonly OverviewChart[]): string {
  const first = charts[0];
  if (first === undefined) return 'Charts';
  const words = windowWords(Math.floor((first.to - first.from) / 60_000) + 1);
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
}

/** The next step of a shop's worst cause: its words, the page that shows or does it, the command. */
function nextCell(next: NextStep | null): string {
  if (next === null) return '<td class="next"></td>';
  const link = next.href === null ? '' : ` <a href="${esc(next.href)}">${esc(linkWords(next.href))}</a>`;
  const command = next.command === null ? '' : ` <code>${esc(next.command)}</code>`;
  return `<td class="next">${esc(next.text)}${link}${command}</td>`;
}

/** What a next step's link opens, in words: its page's name (`catalog-calls`: "catalog calls"). */
function linkWords(href: string): string {
  const path = href.split('?')[0] ?? '';
  const page =
    path
      .split('/')
      .filter((part) => part !== '' && !part.includes('.'))
      .at(-1) ?? 'overview';
  return page === 'ui' ? 'overview' : page.replaceAll('-', ' ');
}

function sum(counts: Record<string, number>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

/** One delivery as the deliveries list shows it. */
export interface DeliveryRow {
  id: string;
  shop: string;
  topic: string;
  productId: string | null;
  state: string;
  outcome: string | null;
  receivedAt: Date;
  processedAt: Date | null;
}

/** The inbox's latest deliveries, filtered by shop, state and time (a GET form). */
export function deliveriesPage(
  rows: readonly DeliveryRow[],
  filter: { shop: string | null; state: string | null; hours: number },
  shops: readonly string[],
  csrf: string,
  context: ListContext,
): string {
  const options = ['', ...shops]
    .map(
      (s) =>
        `<option value="${esc(s)}"${s === (filter.shop ?? '') ? ' selected' : ''}>${esc(s || 'every shop')}</option>`,
    )
    .join('');
  const states = ['', 'received', 'done', 'rejected']
    .map(
      (s) =>
        `<option value="${s}"${s === (filter.state ?? '') ? ' selected' : ''}>${s ? inWords('deliveryState', s) : 'any state'}</option>`,
    )
    .join('');
  const body = rows
    .map(
      (
        r,
      ) => `<tr data-delivery="${esc(r.id)}"><td>${timeAgo(r.receivedAt, context.now)}</td><td class="opt">${esc(r.shop)}</td><td class="opt">${esc(inWords('topic', r.topic))}</td>
<td>${r.productId ? productLink(r.shop, r.productId, context.titles) : ''}</td>
<td class="state">${esc(inWords('deliveryState', r.state))}</td><td class="outcome">${esc(inWords('syncOutcome', r.outcome))}</td><td class="opt">${r.processedAt ? timeAgo(r.processedAt, context.now) : ''}</td></tr>`,
    )
    .join('');
  return page(
    'Deliveries',
    `<form method="get" action="/admin/ui/deliveries"><label>Shop <select name="shop">${options}</select></label>
<label>State <select name="state">${states}</select></label>
<label>Last hours <input name="hours" type="number" min="1" max="720" value="${esc(filter.hours)}"></label> <button type="submit">Filter</button></form>
${scrollTable(
  `<table><thead><tr><th scope="col">Received</th><th scope="col" class="opt">Shop</th><th scope="col" class="opt">Topic</th><th scope="col">Product</th><th scope="col">State</th><th scope="col">Outcome</th><th scope="col" class="opt">Processed</th></tr></thead>
<tbody>${body || '<tr><td colspan="7" class="muted">None.</td></tr>'}</tbody></table>`,
  'Deliveries',
)}`,
    csrf,
  );
}

/** One write-back history entry as the write-backs list shows it. */
export interface WriteBackRow {
  at: Date;
  shop: string;
  productId: string;
  targetKey: string;
  purpose: string;
  result: string;
}

/** The write-back history's latest entries, filtered by shop and time (a GET form). */
export function writeBacksPage(
  rows: readonly WriteBackRow[],
  filter: { shop: string | null; hours: number },
  shops: readonly string[],
  csrf: string,
  context: ListContext,
): string {
  const options = ['', ...shops]
    .map(
      (s) =>
        `<option value="${esc(s)}"${s === (filter.shop ?? '') ? ' selected' : ''}>${esc(s || 'every shop')}</option>`,
    )
    .join('');
  const body = rows
    .map(
      (r) => `<tr data-write-back><td>${timeAgo(r.at, context.now)}</td><td class="opt">${esc(r.shop)}</td>
<td>${productLink(r.shop, r.productId, context.titles)}</td>
<td><span title="${esc(r.targetKey)}">${esc(targetInWords(r.targetKey))}</span></td><td class="opt">${esc(inWords('pushPurpose', r.purpose))}</td><td class="outcome">${esc(inWords('pushResult', r.result))}</td></tr>`,
    )
    .join('');
  return page(
    'Write-backs',
    `<form method="get" action="/admin/ui/write-backs"><label>Shop <select name="shop">${options}</select></label>
<label>Last hours <input name="hours" type="number" min="1" max="720" value="${esc(filter.hours)}"></label> <button type="submit">Filter</button></form>
${scrollTable(
  `<table><thead><tr><th scope="col">At</th><th scope="col" class="opt">Shop</th><th scope="col">Product</th><th scope="col">Shopify field</th><th scope="col" class="opt">Why</th><th scope="col">Result</th></tr></thead>
<tbody>${body || '<tr><td colspan="6" class="muted">None.</td></tr>'}</tbody></table>`,
  'Write-backs',
)}`,
    csrf,
  );
}
