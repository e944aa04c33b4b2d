import type { RunErrorLine } from '../runs/run-summaries.js';
import { agoWords, exactTime, nextWords, type ShopRunTimes } from '../runs/run-times.js';
import type { RunKind, RunSummaryDto } from '../runs/runs.dto.js';
import { esc, page, scrollTable } from './ui-html.js';

/** Long ids, domains and error texts wrap instead of widening a phone's page. */
const WRAP =
  '<style>h1,p,td{overflow-wrap:anywhere}.counts{display:flex;flex-wrap:wrap;gap:.6rem;list-style:none;padding:0;margin:0 0 1rem}.counts li{background:#fff;border:1px solid #e3e6ea;padding:.4rem .7rem;min-width:6.5rem}.counts strong{display:block;font-size:1.3rem}</style>';
const KIND_WORDS: Readonly<Record<RunKind, string>> = {
  resync: 'Resync',
  reconcile: 'Reconciliation',
  drift: 'Drift report',
};
const COUNTED = ['created', 'updated', 'deleted', 'failed', 'skipped'] as const;

/** Why: a time read relative to now ("12 min ago"), its exact time on hover; `never`: the words for none. */
export function agoTag(at: string | null, now: number, never = 'never'): string {
  return at === null
    ? `<span class="muted">${esc(never)}</span>`
    : `<time datetime="${esc(at)}" title="${esc(exactTime(at))}">${esc(agoWords(at, now))}</time>`;
}

/** Why: a next run's due time in words ("next in 48 min", "late by 5 min"), its exact time on hover. */
export function nextTag(at: string | null, now: number): string {
  return at === null
    ? `<span class="muted">${esc(nextWords(null, now))}</span>`
    : `<time datetime="${esc(at)}" title="${esc(exactTime(at))}">${esc(nextWords(at, now))}</time>`;
}

/** The poll's last and next, or why there is none: the shop is not polled, or no poll went through yet. */
function pollCell(runs: ShopRunTimes, now: number, between: string): string {
  if (!runs.polled) return '<span class="muted">not polled: its mapping writes nothing back</span>';
  return `${agoTag(runs.lastPoll, now, 'no poll finished yet')}${between}${nextTag(runs.nextPoll, now)}`;
}

const historyHref = (shop: string) => `/admin/ui/runs?shop=${encodeURIComponent(shop)}`;

/** Why: the overview's runs section: per shop, its last sync, poll and reconciliation and the next ones due. */
export function runTimesSection(
  shops: ReadonlyArray<{ shop: string; runs: ShopRunTimes | null }>,
  now: number,
): string {
  const rows = shops
    .map(({ shop, runs }) =>
      runs === null
        ? ''
        : `<tr data-shop-runs="${esc(shop)}"><th scope="row">${esc(shop)}</th><td data-run-time="lastSync">${agoTag(runs.lastSync, now)}</td>
<td data-run-time="lastPoll">${pollCell(runs, now, '<br>')}</td>
<td data-run-time="lastReconcile">${agoTag(runs.lastReconcile, now)}<br>${nextTag(runs.nextReconcile, now)}</td>
<td><a href="${historyHref(shop)}">Run history</a></td></tr>`,
    )
    .join('');
  return `<h2>Runs</h2>${scrollTable(
    `<table><thead><tr><th scope="col">Shop</th><th scope="col">Last successful sync</th><th scope="col">Enrichment poll (last, next)</th><th scope="col">Reconciliation (last, next)</th><th scope="col">History</th></tr></thead>
<tbody>${rows || '<tr><td colspan="5" class="muted">No shop.</td></tr>'}</tbody></table>`,
    'Runs of each shop',
  )}`;
}

/** Why: the shop's page: its last runs, the next ones due, and its run history. */
export function shopRunTimesSection(shop: string, runs: ShopRunTimes, now: number): string {
  const line = (label: string, last: string | null, next?: string | null) =>
    `<li>${esc(label)}: ${agoTag(last, now)}${next === undefined ? '' : `, ${nextTag(next, now)}`}</li>`;
  return `<h2>Runs</h2><ul class="run-times">${line('Last successful sync', runs.lastSync)}<li>Enrichment poll: ${pollCell(
    runs,
    now,
    ', ',
  )}</li>${line('Reconciliation', runs.lastReconcile, runs.nextReconcile)}${line(
    'Drift report',
    runs.lastDrift,
    runs.nextDrift,
  )}</ul><p><a href="${historyHref(shop)}">Run history of ${esc(shop)}</a></p>`;
}

/** The web view's route of a run's error report (under the session). */
export function uiErrorsHref(run: Pick<RunSummaryDto, 'kind' | 'id'>): string {
  return `/admin/ui/runs/${run.kind}/${encodeURIComponent(run.id)}/errors.csv`;
}

const runName = (run: RunSummaryDto) =>
  `${KIND_WORDS[run.kind]} ${run.id}${run.productId ? ` of product ${run.productId}` : ''}${run.dryRun ? ' (dry run)' : ''}`;

function countCells(run: RunSummaryDto): string {
  if (run.counts === null) {
    const f = run.findings;
    return `<td colspan="5" data-count="findings">${
      f === null
        ? ''
        : `${esc(f.total)} finding(s): ${esc(f.new)} new, ${esc(f.resolved)} resolved, ${esc(f.repaired)} repaired`
    }</td>`;
  }
  const counts = run.counts;
  return COUNTED.map(
    (name) =>
      `<td data-count="${name}"${name === 'failed' && counts.failed > 0 ? ' class="error"' : ''}>${esc(counts[name])}</td>`,
  ).join('');
}

const waitingNote = (run: RunSummaryDto) =>
  run.counts !== null && run.counts.waiting > 0
    ? ` <span class="muted">(${esc(run.counts.waiting)} waiting)</span>`
    : '';

/** Why: the run history: every resync, reconciliation and drift report, newest first, with counts. */
export function runsPage(
  runs: readonly RunSummaryDto[],
  filter: { shop: string | null; kind: RunKind | null },
  shops: readonly string[],
  now: number,
  csrf: string,
): string {
  const options = (values: readonly string[], chosen: string | null, any: string, words = (v: string) => v) =>
    ['', ...values]
      .map(
        (v) =>
          `<option value="${esc(v)}"${v === (chosen ?? '') ? ' selected' : ''}>${esc(v === '' ? any : words(v))}</option>`,
      )
      .join('');
  const rows = runs
    .map(
      (
        run,
      ) => `<tr data-run="${esc(`${run.kind}-${run.id}`)}"><th scope="row"><a href="${esc(run.page)}">${esc(runName(run))}</a></th>
<td>${esc(run.shop)}</td><td>${agoTag(run.startedAt, now)}</td><td class="run-state">${esc(run.state)}${waitingNote(run)}</td>${countCells(run)}
<td><a href="${esc(uiErrorsHref(run))}" download>Error report (CSV)</a></td></tr>`,
    )
    .join('');
  const form = `<form method="get" action="/admin/ui/runs"><label>Shop <select name="shop">${options(shops, filter.shop, 'every shop')}</select></label>
<label>Kind <select name="kind">${options(['resync', 'reconcile', 'drift'], filter.kind, 'every kind', (k) => KIND_WORDS[k as RunKind])}</select></label> <button type="submit">Filter</button></form>`;
  return page(
    'Runs',
    `${WRAP}${form}${scrollTable(
      `<table><thead><tr><th scope="col">Run</th><th scope="col">Shop</th><th scope="col">Started</th><th scope="col">State</th><th scope="col">Created</th><th scope="col">Updated</th><th scope="col">Deleted</th><th scope="col">Failed</th><th scope="col">Skipped</th><th scope="col">Errors</th></tr></thead>
<tbody>${rows || '<tr><td colspan="10" class="muted">No run yet.</td></tr>'}</tbody></table>`,
      'Runs',
    )}<p class="muted">A resync or reconciliation counts its products by what their sync did (a dry run: what it would do); a drift report counts its findings. Waiting products are neither done nor failed yet.</p>`,
    csrf,
  );
}

/**
 * Why: a resync's or reconciliation's own page: what it was, how it ended, its counts, and its
 * failed products (each linked to its page), with the error report to download.
 */
export function runPage(
  run: RunSummaryDto,
  errors: readonly RunErrorLine[],
  now: number,
  csrf: string,
): string {
  const counts = run.counts;
  const figures =
    counts === null
      ? ''
      : `<ul class="counts">${(['listed', ...COUNTED, 'waiting'] as const)
          .map((name) => `<li data-count="${name}">${esc(name)}<strong>${esc(counts[name])}</strong></li>`)
          .join('')}</ul>`;
  const rows = errors
    .map(
      (line) => `<tr data-product="${esc(line.productId ?? '')}"><td>${
        line.productId === null
          ? ''
          : `<a href="/admin/ui/products/${esc(line.productId)}?shop=${encodeURIComponent(run.shop)}">${esc(line.productId)}</a>`
      }</td><td>${esc(line.title ?? '')}</td><td><code>${esc(line.code ?? '')}</code></td><td>${esc(line.error ?? '')}</td>
<td>${line.at === null ? '' : agoTag(line.at.toISOString(), now)}</td></tr>`,
    )
    .join('');
  const ended = run.finishedAt === null ? 'still running' : `ended ${agoTag(run.finishedAt, now)}`;
  return page(
    runName(run),
    `${WRAP}<p>Shop ${esc(run.shop)}: started ${agoTag(run.startedAt, now)}, <span class="run-state">${esc(run.state)}</span>, ${ended}.${
      run.error ? ` <span class="error">${esc(run.error)}</span>` : ''
    }</p>${run.dryRun ? '<p class="muted">A dry run: the counts are what it would have done; nothing was sent.</p>' : ''}${figures}
<h2>Failed products</h2><p><a href="${esc(uiErrorsHref(run))}" download>Download the error report (CSV)</a></p>${scrollTable(
      `<table><thead><tr><th scope="col">Product</th><th scope="col">Title</th><th scope="col">Error code</th><th scope="col">Error</th><th scope="col">Failed</th></tr></thead>
<tbody>${rows || '<tr><td colspan="5" class="muted">None.</td></tr>'}</tbody></table>`,
      'Failed products',
    )}<p><a href="${esc(`/admin/ui/runs?shop=${encodeURIComponent(run.shop)}`)}">Run history of ${esc(run.shop)}</a></p>`,
    csrf,
  );
}
