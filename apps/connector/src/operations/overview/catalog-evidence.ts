import type { CatalogEvidence } from './shop-health.js';

/** The minutes the catalog rules read (`shopHealth`): recent enough to be now, long enough to judge a share. */
export const EVIDENCE_MINUTES = 5;

/** Why: a product write is a create, update or delete of a product or a variant; a search is a read. */
export function isProductWrite(endpoint: string): boolean {
  return (
    /^(POST|PATCH|PUT|DELETE) \/v1\/(products|variants)(\/|$)/.test(endpoint) && !endpoint.endsWith('/search')
  );
}

/** The per-account series kept in `overview_minutes`: `<kind>@<account id>`. */
export type AccountSeriesKind =
  | 'catalog_calls'
  | 'catalog_429'
  | 'catalog_writes'
  | `catalog_write_${number}`
  | 'catalog_write_unanswered';

/** The series name of one account's counter. */
export function accountSeries(kind: AccountSeriesKind, account: string): `${AccountSeriesKind}@${string}` {
  return `${kind}@${account}`;
}

/**
 * Why: the catalog rules judge an account by its calls of the last minutes, every replica's, as
 * `overview_minutes` holds them (rows of `accountSeries`): product writes, those answered 5xx by
 * status and those not answered at all (time-out, connection refused), calls and those answered 429. Null when the account made no call in the window.
 */
export function catalogEvidence(
  rows: ReadonlyArray<{ series: string; count: number }>,
  account: string,
): CatalogEvidence | null {
  const evidence: CatalogEvidence = {
    windowMinutes: EVIDENCE_MINUTES,
    writes: 0,
    serverErrors: {},
    unanswered: 0,
    calls: 0,
    rateLimited: 0,
  };
  let any = false;
  for (const row of rows) {
    const at = row.series.indexOf('@');
    if (at < 0 || row.series.slice(at + 1) !== account) continue;
    const kind = row.series.slice(0, at);
    any = true;
    if (kind === 'catalog_calls') evidence.calls += row.count;
    else if (kind === 'catalog_429') evidence.rateLimited += row.count;
    else if (kind === 'catalog_writes') evidence.writes += row.count;
    else if (kind === 'catalog_write_unanswered') evidence.unanswered += row.count;
    else if (kind.startsWith('catalog_write_')) {
      const status = kind.slice('catalog_write_'.length);
      evidence.serverErrors[status] = (evidence.serverErrors[status] ?? 0) + row.count;
    }
  }
  return any ? evidence : null;
}
