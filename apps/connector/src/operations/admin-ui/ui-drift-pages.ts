import { repairEffect } from '../../drift/drift-repair-effect.js';
import type { DriftRepairOutcome } from '../../drift/drift-repairs.service.js';
import { DRIFT_KINDS, type DriftKind, type DriftRepair } from '../../drift/model/drift-finding.js';
import type { DriftFindingRow } from '../../drift/store/drift-finding-row.entity.js';
import type { DriftReport } from '../../drift/store/drift-report.entity.js';
import { csrfField, esc, page, scrollTable } from './ui-html.js';
import { timeAgo } from './ui-time.js';

const WRAP = '<style>h1,h2,p,td{overflow-wrap:anywhere}</style>';

/** Why: an operator reads a kind's meaning, not its code name. */
export const KIND_WORDS: Record<DriftKind, string> = {
  'catalog-changed': 'Changed in the catalog',
  'missed-webhook': 'Changed in Shopify after its last sync',
  'record-gone': 'Catalog record gone',
  orphan: 'Catalog record nobody links',
  duplicate: 'Duplicate catalog record',
  'written-back-differs': 'Written-back value edited in Shopify',
  'no-longer-approved': 'Written-back value no longer approved',
};

/** Why: each finding names what its repair would do, in words, before anyone chooses it. */
export const REPAIR_WORDS: Record<DriftRepair, string> = {
  resync: 'sync the product again from Shopify',
  adopt: 'link the record to the product its supplierSku names, then sync that product',
  'delete-record':
    'delete the record from the catalog for good, with its enrichment (checked again first; refused in shadow, and for approved enrichment until you confirm the loss)',
  retract:
    "take the written-back value out of Shopify, putting back the merchant's earlier value (refused in shadow)",
  'accept-merchant':
    "keep the merchant's value: the connector stops writing there, and the product is synced (refused in shadow)",
  review:
    "leave it: the connector cannot prove it owns this record (it may be another shop's or tool's live record), so it is never deleted from here; look at it in the catalog",
};

/** Why: the result page says what each chosen repair did, in words. */
export const OUTCOME_WORDS: Record<DriftRepairOutcome['outcome'], string> = {
  enqueued: 'sync queued',
  deleted: 'record deleted from the catalog',
  'already-repaired': 'already repaired before: left as is',
  'not-supported': 'cannot be done for this finding: nothing done',
  retracted: 'value taken out of Shopify',
  accepted: "merchant's value kept, sync queued",
  failed: 'tried, did not take',
  adopted: 'record linked to its product, sync queued',
  'not-adoptable': 'cannot be adopted: nothing done',
  refused: 'refused: nothing done',
  'needs-confirmation': 'not deleted: it holds approved enrichment, confirm the loss first',
  preview: 'not run (preview)',
};

/** One shop's row of the drift list: its latest report, if any. */
export interface ShopDrift {
  shop: string;
  latest: DriftReport | null;
}

function countsText(report: DriftReport): string {
  const parts = DRIFT_KINDS.filter((k) => (report.counts[k] ?? 0) > 0).map(
    (k) => `${KIND_WORDS[k]}: ${report.counts[k]}`,
  );
  return parts.length === 0 ? 'no findings' : parts.join('; ');
}

/** Why: the drift list: each shop's latest report (counts by kind, new, still open, resolved) and how to run one. */
export function driftListPage(
  rows: readonly ShopDrift[],
  open: ReadonlyMap<string, { new: number; stillOpen: number }>,
  now: number,
  csrf: string,
): string {
  const body = rows
    .map(({ shop, latest }) => {
      const run = `<a href="/admin/ui/drift/shops/${encodeURIComponent(shop)}/run">Run a report now…</a>`;
      if (!latest)
        return `<tr><td>${esc(shop)}</td><td colspan="4" class="muted">No report yet</td><td>${run}</td></tr>`;
      const o = open.get(latest.id) ?? { new: 0, stillOpen: 0 };
      return `<tr><td>${esc(shop)}</td><td><a href="/admin/ui/drift/${encodeURIComponent(latest.id)}">Report ${esc(latest.id)}</a>, ${timeAgo(latest.createdAt, now)}<br><span class="muted">${esc(countsText(latest))}</span></td><td>${o.new}</td><td>${o.stillOpen}</td><td>${latest.resolved.length}</td><td>${run}</td></tr>`;
    })
    .join('');
  const table = `<table><caption class="muted">Each shop's latest drift report</caption><thead><tr><th scope="col">Shop</th><th scope="col">Latest report</th><th scope="col">New</th><th scope="col">Still open</th><th scope="col">Resolved</th><th scope="col">Action</th></tr></thead><tbody>${body}</tbody></table>`;
  return page(
    'Drift',
    `${WRAP}<p>A drift report compares Shopify, the connector's links and the catalog, and lists where they disagree. Nothing is repaired until you choose it.</p>${scrollTable(table, 'Drift reports')}`,
    csrf,
  );
}

/** Why: the run's confirm step: what a report does, then one POST with the CSRF token. */
export function driftRunConfirmPage(shop: string, csrf: string): string {
  const action = `/admin/ui/drift/shops/${encodeURIComponent(shop)}/run`;
  return page(
    `Run a drift report for ${shop}?`,
    `${WRAP}<p>This reads ${esc(shop)}'s products in Shopify and its records in the catalog (searches at the shop's catalog budget) and records a report. It repairs nothing.</p>
<form method="post" action="${action}">${csrfField(csrf)}<button type="submit">Run the report</button> <a href="/admin/ui/drift">Cancel</a></form>`,
    csrf,
  );
}

function findingText(row: DriftFindingRow): string {
  const f = row.finding;
  const about = [
    f.productId ? `product ${f.productId}` : null,
    f.supplierSku ? `supplierSku ${f.supplierSku}` : null,
    f.skuId ? `record ${f.skuId}` : null,
    f.field ? `field ${f.field}` : null,
    f.target
      ? `written to ${f.target}${f.ownerId?.includes('ProductVariant') ? ` of variant ${f.ownerId.slice(f.ownerId.lastIndexOf('/') + 1)}` : ''}`
      : null,
  ].filter((x) => x !== null);
  const values =
    f.expected !== null || f.found !== null
      ? ` (expected ${esc(JSON.stringify(f.expected))}, found ${esc(JSON.stringify(f.found))})`
      : '';
  return `${esc(about.join(', ') || f.key)}${values}`;
}

function stateText(row: DriftFindingRow): string {
  if (row.repairedAt)
    return `repaired: ${OUTCOME_WORDS[row.repairOutcome as DriftRepairOutcome['outcome']] ?? row.repairOutcome}`;
  return row.status === 'new' ? 'new' : 'still open';
}

/** Why: one report's findings grouped by kind, each with its repair in words, and the three ways to choose repairs. */
export function driftReportPage(
  report: DriftReport,
  rows: readonly DriftFindingRow[],
  now: number,
  csrf: string,
): string {
  const base = `/admin/ui/drift/${encodeURIComponent(report.id)}`;
  const groups = DRIFT_KINDS.map((kind) => {
    const of = rows.filter((r) => r.finding.kind === kind);
    if (of.length === 0) return '';
    const items = of
      .map((r) => {
        const id = `f-${esc(r.id)}`;
        const box = r.repairedAt ? '' : `<input type="checkbox" id="${id}" name="ids" value="${esc(r.id)}"> `;
        const button = r.repairedAt
          ? ''
          : ` <button type="submit" name="one" value="${esc(r.id)}">Repair finding ${esc(r.id)} only…</button>`;
        return `<li>${box}<label for="${id}">Finding ${esc(r.id)}: ${findingText(r)}</label> <span class="muted">[${esc(stateText(r))}]</span><br>Repair: ${esc(REPAIR_WORDS[r.finding.repair])}.${button}</li>`;
      })
      .join('');
    return `<section aria-labelledby="k-${kind}"><h2 id="k-${kind}">${esc(KIND_WORDS[kind])} (${of.length})</h2>
<form method="get" action="${base}/repair"><ul>${items}</ul>
<p><button type="submit">Repair the selected…</button> <a href="${base}/repair?kind=${kind}">Repair all ${esc(KIND_WORDS[kind].toLowerCase())}…</a></p></form></section>`;
  }).join('');
  return page(
    `Drift report ${report.id}`,
    `${WRAP}<p>${esc(report.shop)}, ${timeAgo(report.createdAt, now)}: ${report.catalogRecords} catalog record(s) read; ${report.resolved.length} finding(s) of the previous report resolved.</p>${
      groups || '<p class="ok">No findings: Shopify, the links and the catalog agree.</p>'
    }<p><a href="/admin/ui/drift">All shops' drift</a></p>`,
    csrf,
  );
}

/** The repairs an operator chose: some findings, or every finding of a kind. */
export type UiDriftChoice = { ids: string[] } | { kind: DriftKind };

/** Why: reads the choice from the report page's form or links (pure, unit-tested); null when nothing was chosen. */
export function driftChoiceOf(query: Record<string, unknown>): UiDriftChoice | null {
  const one = typeof query.one === 'string' && /^\d{1,18}$/.test(query.one) ? query.one : null;
  if (one) return { ids: [one] };
  const raw = query.ids;
  const list = (Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : []).filter(
    (x): x is string => typeof x === 'string' && /^\d{1,18}$/.test(x),
  );
  if (list.length > 0) return { ids: [...new Set(list)].slice(0, 500) };
  if (typeof query.kind === 'string' && (DRIFT_KINDS as readonly string[]).includes(query.kind)) {
    return { kind: query.kind as DriftKind };
  }
  return null;
}

/** Why: the repairs' confirm step: which findings and what each repair will do, then one POST with the CSRF token. */
export function driftRepairConfirmPage(
  report: DriftReport,
  choice: UiDriftChoice,
  chosen: readonly DriftFindingRow[],
  csrf: string,
): string {
  const base = `/admin/ui/drift/${encodeURIComponent(report.id)}`;
  const hidden =
    'kind' in choice
      ? `<input type="hidden" name="kind" value="${esc(choice.kind)}">`
      : `<input type="hidden" name="ids" value="${esc(choice.ids.join(','))}">`;
  const list = chosen
    .map(
      (r) =>
        `<li>Finding ${esc(r.id)} (${esc(KIND_WORDS[r.finding.kind])}): ${findingText(r)}: will ${esc(REPAIR_WORDS[r.finding.repair])}.${effectText(repairEffect(r.finding))}</li>`,
    )
    .join('');
  return page(
    `Repair ${chosen.length} finding(s)?`,
    `${WRAP}<ul>${list}</ul>
<form method="post" action="${base}/repairs">${csrfField(csrf)}${hidden}<button type="submit">Run ${chosen.length} repair(s)</button> <a href="${base}">Cancel</a></form>`,
    csrf,
  );
}

/** Why: what each chosen repair did. */
export function driftRepairResultPage(
  report: DriftReport,
  outcomes: readonly DriftRepairOutcome[],
  csrf: string,
): string {
  const list = outcomes
    .map(
      (o) =>
        `<li>Finding ${esc(o.findingId)} (${esc(KIND_WORDS[o.kind as DriftKind] ?? o.kind)}): <span class="repair-outcome">${esc(OUTCOME_WORDS[o.outcome])}</span>${o.reason ? ` (${esc(o.reason)})` : ''}.${effectText(o.effect ?? null)}</li>`,
    )
    .join('');
  return page(
    'Drift repairs done',
    `${WRAP}<div role="status" class="ok"><p>${outcomes.length} repair(s) ran.</p></div><ul>${list || '<li>Nothing to repair.</li>'}</ul>${confirmLossForm(report, outcomes, csrf)}
<p><a href="/admin/ui/drift/${encodeURIComponent(report.id)}">Back to report ${esc(report.id)}</a> · <a href="/admin/ui/drift/shops/${encodeURIComponent(report.shop)}/run">Run a new report to see them resolved…</a></p>`,
    csrf,
  );
}

function effectText(effect: string | null): string {
  return effect === null ? '' : ` <span class="muted">It ${esc(effect)}.</span>`;
}

/**
 * Why: a record holding approved enrichment is deleted only once an operator saw what goes with
 * it: the confirm step lists each such record and its approved attributes, and its POST names
 * those records (`confirmLoss`), nothing else.
 */
function confirmLossForm(report: DriftReport, outcomes: readonly DriftRepairOutcome[], csrf: string): string {
  const held = outcomes.filter((o) => o.outcome === 'needs-confirmation');
  if (held.length === 0) return '';
  const skuIds = held.flatMap((o) => (o.skuId !== undefined ? [o.skuId] : []));
  const list = held
    .map(
      (o) =>
        `<li>Finding ${esc(o.findingId)}: record ${esc(o.skuId ?? '?')} and its approved ${esc((o.loses ?? []).join(', '))}, lost for good.</li>`,
    )
    .join('');
  return `<section aria-labelledby="confirm-loss"><h2 id="confirm-loss">Delete anyway, losing approved enrichment?</h2><ul>${list}</ul>
<form method="post" action="/admin/ui/drift/${encodeURIComponent(report.id)}/repairs">${csrfField(csrf)}<input type="hidden" name="ids" value="${esc(held.map((o) => o.findingId).join(','))}"><input type="hidden" name="confirmLoss" value="${esc(skuIds.join(','))}"><button type="submit">Delete ${held.length} record(s) and lose what is listed</button></form></section>`;
}
