import type { PollBudgetView } from '../../write-back/poll/poll-budget-shares.service.js';
import type { EnrichmentPollRun } from '../../write-back/store/enrichment-poll-run.entity.js';
import type { CatalogMinute } from '../overview/overview.service.js';
import { minutes } from '../overview/shop-health.js';
import { esc, page, scrollTable } from './ui-html.js';
import { shopOptions } from './ui-sync-pages.js';
import { timeAgo } from './ui-time.js';
import { inWords } from './ui-words.js';

const hoursField = (hours: number) =>
  `<label>Last hours <input name="hours" type="number" min="1" max="720" value="${esc(hours)}"></label>`;

/** A poll's outcome in words: still queued or running, finished, or failed with its error. */
function outcomeOf(run: EnrichmentPollRun, shop: string | null): string {
  if (run.finishedAt === null) return run.startedAt === null ? 'queued' : 'running';
  if (run.error !== null) return `failed: ${run.error}`;
  const held = Object.entries(run.counts.held ?? {});
  if (shop !== null) {
    const why = run.counts.held?.[shop];
    return why === undefined ? 'finished' : `paused: ${why}`;
  }
  if (held.length === 0) return 'finished';
  // Held shops waited for their catalog (breaker open, no key): paused, not failed.
  const paused = `paused: ${held.map(([s, why]) => `${s} — ${why}`).join('; ')}`;
  return Object.keys(run.counts.shops ?? {}).length === 0 ? paused : `finished; ${paused}`;
}

/**
 * Why: the list behind the overview's "Enrichment lag": the enrichment polls (when, trigger,
 * what each found, changed and gave push work, the lag it left), by shop and time. With a shop,
 * each row is that shop's part of the poll; failed polls show under every shop.
 */
export function enrichmentPollsPage(
  runs: readonly EnrichmentPollRun[],
  filter: { shop: string | null; hours: number },
  shops: readonly string[],
  csrf: string,
  now: number,
): string {
  const body = runs
    .map((run) => {
      const part = filter.shop === null ? undefined : run.counts.shops?.[filter.shop];
      const counts = part ?? run.counts;
      const lags = Object.values(run.counts.shops ?? {})
        .map((s) => s.lagSeconds)
        .filter((lag): lag is number => lag !== null);
      const lag = part !== undefined ? part.lagSeconds : lags.length > 0 ? Math.max(...lags) : null;
      const polled = filter.shop ?? Object.keys(run.counts.shops ?? {}).join(', ');
      const outcome = outcomeOf(run, filter.shop);
      return `<tr data-poll="${esc(run.id)}"><td>${timeAgo(run.startedAt ?? run.requestedAt, now)}</td><td class="opt">${esc(inWords('pollTrigger', run.trigger))}</td>
<td class="opt">${esc(polled)}</td><td>${esc(counts.found ?? '')}</td><td class="opt">${esc(counts.changed ?? '')}</td><td class="opt">${esc(counts.products ?? '')}</td>
<td class="opt">${esc(counts.calls ?? '')}</td><td>${esc(lag === null ? '—' : minutes(lag))}</td><td class="outcome${outcome.startsWith('failed') ? ' error' : ''}">${esc(outcome)}</td></tr>`;
    })
    .join('');
  return page(
    'Enrichment polls',
    `<p class="muted">Each poll of the catalog for finished enrichments and approvals; "behind the catalog" is how far behind the catalog's newest finished enrichment the poll left a shop (the highest over its shops). The overview's enrichment lag is the time since the last poll that finished.</p>
<form method="get" action="/admin/ui/enrichment-polls"><label>Shop <select name="shop">${shopOptions(shops, filter.shop)}</select></label>
${hoursField(filter.hours)} <button type="submit">Filter</button></form>
${scrollTable(
  `<table><thead><tr><th scope="col">Started</th><th scope="col" class="opt">Asked by</th><th scope="col" class="opt">Shops</th><th scope="col">Records found</th><th scope="col" class="opt">Changed</th><th scope="col" class="opt">Products given push work</th><th scope="col" class="opt">Catalog calls</th><th scope="col">Behind the catalog</th><th scope="col">Outcome</th></tr></thead>
<tbody>${body || '<tr><td colspan="9" class="muted">None.</td></tr>'}</tbody></table>`,
  'Enrichment polls',
)}`,
    csrf,
  );
}

/**
 * Why: the list behind the overview's "Catalog budget used": each minute's catalog calls and 429
 * answers (every replica's, kept in `overview_minutes`), and the share of the budget they used;
 * then the enrichment poll's share of each account's budget over the window, against its bound
 * (`pollShareTable`).
 */
export function catalogCallsPage(
  view: { budgetPerMinute: number; minutes: readonly CatalogMinute[] },
  polls: PollBudgetView,
  hours: number,
  csrf: string,
  now: number,
): string {
  const body = view.minutes
    .map(
      (m) =>
        `<tr><td>${timeAgo(m.minute, now)}</td><td>${esc(m.calls)}</td><td class="${m.rateLimited > 0 ? 'error' : ''}">${esc(m.rateLimited)}</td><td>${esc(
          view.budgetPerMinute > 0 ? `${Math.round((m.calls / view.budgetPerMinute) * 100)} %` : '—',
        )}</td></tr>`,
    )
    .join('');
  return page(
    'Catalog calls',
    `<p class="muted">Catalog calls and 429 (rate limited) answers per minute, every replica's; the budget is ${esc(view.budgetPerMinute)} calls a minute. Minutes without a call are left out.</p>
<form method="get" action="/admin/ui/catalog-calls">${hoursField(hours)} <button type="submit">Filter</button></form>
${pollShareTable(polls, now)}
<h2>Each minute</h2>
${scrollTable(
  `<table><thead><tr><th scope="col">Minute</th><th scope="col">Calls</th><th scope="col">429 answers</th><th scope="col">Budget used</th></tr></thead>
<tbody>${body || '<tr><td colspan="4" class="muted">None.</td></tr>'}</tbody></table>`,
  'Catalog calls',
)}`,
    csrf,
  );
}

/** A share as a percentage with two decimals ("0.42 %"): a poll's share is often well under 1 %. */
function percent(share: number): string {
  return `${(Math.round(share * 10_000) / 100).toFixed(2)} %`;
}

/**
 * The enrichment poll's share of each account's budget over the window: the scheduled and the
 * early polls' catalog calls (what `CONNECTOR_ENRICHMENT_POLL_BUDGET_SHARE` bounds), the
 * operator's polls beside them, and the bound; a share above it is marked.
 */
function pollShareTable(polls: PollBudgetView, now: number): string {
  const cell = (n: { polls: number; calls: number }) =>
    `${esc(n.calls)} <span class="muted">(${esc(n.polls)} ${n.polls === 1 ? 'poll' : 'polls'})</span>`;
  const body = polls.accounts
    .map((a) => {
      const at = (trigger: 'schedule' | 'early' | 'admin') => ({
        polls: a.polls[trigger],
        calls: a.calls[trigger],
      });
      const over = a.share > a.bound;
      return `<tr data-account="${esc(a.account)}"><td class="wrap">${esc(a.account)}</td><td class="opt wrap">${esc(a.shops.join(', '))}</td>
<td data-calls="schedule">${cell(at('schedule'))}</td><td data-calls="early">${cell(at('early'))}</td><td class="opt" data-calls="admin">${cell(at('admin'))}</td>
<td class="share${over ? ' error' : ''}">${esc(percent(a.share))}</td><td class="bound">${esc(`${Math.round(a.bound * 10_000) / 100} %`)}</td></tr>`;
    })
    .join('');
  const early = polls.earlyPolls
    ? 'Early polls are on: while a shop has records waiting for enrichment or review, it is polled sooner, as long as the polls stay within the bound.'
    : 'Early polls are off: the schedule alone polls.';
  return `<h2>Enrichment poll's share of the budget</h2>
<p class="muted">Catalog calls of the enrichment polls that finished since ${timeAgo(polls.from, now)} (${esc(minutes(polls.windowSeconds))}), every replica's, against each account's budget of ${esc(polls.ratePerSecond)} calls a second over that time. The scheduled and early polls count against the bound (<code>CONNECTOR_ENRICHMENT_POLL_BUDGET_SHARE</code>); an operator's polls are shown beside them. ${esc(early)}</p>
${scrollTable(
  `<table class="poll-share"><thead><tr><th scope="col">Catalog account</th><th scope="col" class="opt">Shops</th><th scope="col">Scheduled polls' calls</th><th scope="col">Early polls' calls</th><th scope="col" class="opt">Operator's polls' calls</th><th scope="col">Share of the budget</th><th scope="col">Bound</th></tr></thead>
<tbody>${body || '<tr><td colspan="7" class="muted">No catalog account.</td></tr>'}</tbody></table>`,
  "Enrichment poll's share of the budget",
)}`;
}
