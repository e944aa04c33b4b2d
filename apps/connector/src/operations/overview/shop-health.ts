import type { CauseCode } from '../../platform/causes/causes.js';
import { causeOfError, errorInWords } from '../../platform/causes/error-causes.js';
import { type MappingGapFacts, mappingGapReason } from './mapping-gap-health.js';

/** A shop's state at a glance (the connector's docs/operations.md, "Shop states"). */
export type ShopHealthState = 'healthy' | 'degraded' | 'failing';

/** A share of product writes answered 5xx at or above this makes the shop failing ... */
export const SERVER_ERRORS_FAILING = 0.5;
/** ... at or above this, degraded; and a share of calls answered 429 at or above it, degraded. */
export const ERRORS_DEGRADED = 0.1;
/** Fewer writes (or calls) than this in the window are too few to judge a share by. */
export const MIN_SAMPLE = 3;
/** A queue that lost its state and was repaired is said for this long after. */
export const QUEUE_LOSS_SHOWN_SECONDS = 15 * 60;

/** The catalog account's calls in the last minutes (every replica's, `overview_minutes`). */
export interface CatalogEvidence {
  windowMinutes: number;
  /** Product writes (creates, updates, deletes of products and variants) sent. */
  writes: number;
  /** Of those, the ones answered 5xx, by status, and the ones not answered (time-out, refused). */
  serverErrors: Record<string, number>;
  unanswered: number;
  /** Every call sent, and the ones answered 429. */
  calls: number;
  rateLimited: number;
}

/** What the connector's own infrastructure says: the same for every shop. */
export interface PlatformFacts {
  /** Why the job queue does not answer (readiness's probe), null when it does. */
  queueProblem: string | null;
  /** Seconds since the queue was found to have lost its state (and was repaired); null: never. */
  queueStateLostSecondsAgo: number | null;
}

/** Everything the rules read about one shop, gathered by `OverviewService`. */
export interface ShopHealthFacts {
  /** The session row's state: `active`, `needs_reauth`, `uninstalled`, `redacted`. */
  authState: string;
  /** Why the shop is not `active` (Shopify's refusal, the uninstall); null when active. */
  authReason: string | null;
  /** An operator's pause of the shop (or of every shop), with its reason; null when none. */
  operatorPause: string | null;
  /** The mapping check's problem for the shop; null when its mapping is valid. */
  mappingProblem: string | null;
  /** Why its stored catalog key cannot be used (it cannot be decrypted); null: none. */
  catalogKeyProblem: string | null;
  /** Deliveries whose sync is to come, and the oldest one's age in seconds (null: none waiting). */
  backlog: number;
  backlogAgeSeconds: number | null;
  /** A backlog older than this makes the shop failing (`CONNECTOR_OVERVIEW_BACKLOG_FAILING_MS`, 5 minutes by default). */
  backlogFailingSeconds: number;
  /** Deliveries held by an open failure of their product's sync (they wait for a replay). */
  heldByFailures: number;
  /** The catalog breaker's state for the shop's account (`closed`, `open`, `half-open`). */
  breaker: string;
  /** The shop's catalog account's recent calls; null when the shop has no catalog key. */
  catalog: CatalogEvidence | null;
  /** Seconds since the shop's last poll that finished its work (null: never polled), and its interval. */
  pollLagSeconds: number | null;
  pollIntervalSeconds: number;
  /** Open failures of the shop by job kind, and by error code. */
  openFailures: Record<string, number>;
  openFailureCodes: Record<string, number>;
  platform: PlatformFacts;
  /** Its products with mapping gaps (absent: not known). */
  mappingGaps?: MappingGapFacts;
}

/** One rule that applies: its cause (the causes table's code) and the reason in words, with its figures. */
export interface ShopCause {
  code: CauseCode;
  severity: Exclude<ShopHealthState, 'healthy'>;
  text: string;
}

/** A shop's state and every reason for it, in words and by cause (worst rule first). */
export interface ShopHealth {
  state: ShopHealthState;
  reasons: string[];
  causes: ShopCause[];
}

/**
 * Why: one set of rules, shared by `GET /admin/overview`, the overview page and `connector
 * status`, decides whether a shop is `failing` (nothing of it gets through: the job queue down,
 * its auth, an operator's pause, an invalid mapping, a stored catalog key that cannot be
 * decrypted, the catalog answering 5xx to (or not answering) most product writes, a sync backlog older than its
 * threshold), `degraded` (it gets through, slowly or with gaps: 5xx or 429 answers to a part of
 * the calls, the catalog breaker open, no poll finished its work for more than twice the poll's
 * interval, the queue's state lost and repaired lately, open failures, more than
 * `CONNECTOR_MAPPING_GAP_DEGRADED_SHARE` of its products with mapping gaps) or `healthy`. Each rule
 * reads the evidence it names, so a state is never worse than the evidence, nor better. Pure, so
 * each rule is unit-tested.
 */
export function shopHealth(facts: ShopHealthFacts): ShopHealth {
  const causes: ShopCause[] = [];
  const failing = (code: CauseCode, text: string) => causes.push({ code, severity: 'failing', text });
  const degraded = (code: CauseCode, text: string) => causes.push({ code, severity: 'degraded', text });
  const { platform, catalog } = facts;

  if (platform.queueProblem !== null) {
    const full = /too many clients|remaining connection slots/i.test(platform.queueProblem);
    failing(
      full ? 'queue_out_of_connections' : 'queue_unavailable',
      `${full ? "the job queue's PostgreSQL has no connection left" : 'the job queue does not answer'} (${platform.queueProblem}): deliveries are kept, nothing is synced`,
    );
  }
  if (facts.authState === 'needs_reauth') {
    failing(
      'shopify_token_refused',
      `Shopify refuses its token: it needs to be authorised again${suffix(facts.authReason)}`,
    );
  } else if (facts.authState === 'uninstalled' || facts.authState === 'redacted') {
    failing(
      'app_uninstalled',
      `the app is ${facts.authState === 'redacted' ? 'uninstalled and its data redacted' : 'uninstalled'}`,
    );
  }
  if (facts.operatorPause !== null)
    failing('operator_pause', `syncing is paused by an operator${suffix(facts.operatorPause)}`);
  if (facts.mappingProblem !== null)
    failing('mapping_invalid', `its mapping is invalid${suffix(facts.mappingProblem)}`);
  if (facts.catalogKeyProblem !== null)
    failing('catalog_key_unusable', `${facts.catalogKeyProblem} (set it again)`);
  const fives = catalog === null ? 0 : Object.values(catalog.serverErrors).reduce((a, b) => a + b, 0);
  const share = catalog === null || catalog.writes < MIN_SAMPLE ? 0 : fives / catalog.writes;
  const serverErrors = catalog === null ? '' : serverErrorWords(catalog, fives);
  if (share >= SERVER_ERRORS_FAILING) failing('catalog_server_errors', serverErrors);
  const silent = catalog === null || catalog.writes < MIN_SAMPLE ? 0 : catalog.unanswered / catalog.writes;
  const unanswered =
    catalog === null
      ? ''
      : `the catalog does not answer ${percent(silent)} of product writes (${catalog.unanswered} of ${catalog.writes} in the last ${catalog.windowMinutes} min: time-out or connection refused)`;
  if (silent >= SERVER_ERRORS_FAILING) failing('catalog_unreachable', unanswered);
  if (facts.backlogAgeSeconds !== null && facts.backlogAgeSeconds > facts.backlogFailingSeconds) {
    failing(
      'sync_backlog',
      facts.backlog === 1
        ? `1 delivery waits for its sync, for ${minutes(facts.backlogAgeSeconds)}`
        : `${facts.backlog} deliveries wait for their sync, the oldest for ${minutes(facts.backlogAgeSeconds)}`,
    );
  }

  if (share >= ERRORS_DEGRADED && share < SERVER_ERRORS_FAILING)
    degraded('catalog_server_errors', serverErrors);
  if (silent >= ERRORS_DEGRADED && silent < SERVER_ERRORS_FAILING)
    degraded('catalog_unreachable', unanswered);
  if (
    catalog !== null &&
    catalog.calls >= MIN_SAMPLE &&
    catalog.rateLimited / catalog.calls >= ERRORS_DEGRADED
  ) {
    degraded(
      'catalog_rate_limited',
      `the catalog answers 429 (too many requests) to ${percent(catalog.rateLimited / catalog.calls)} of calls (${catalog.rateLimited} of ${catalog.calls} in the last ${catalog.windowMinutes} min)`,
    );
  }
  if (facts.breaker !== 'closed') degraded('catalog_breaker_open', `the catalog breaker is ${facts.breaker}`);
  if (facts.pollLagSeconds !== null && facts.pollLagSeconds > 2 * facts.pollIntervalSeconds) {
    degraded(
      'poll_lag',
      `no enrichment poll has finished its work for ${minutes(facts.pollLagSeconds)} (more than twice its ${facts.pollIntervalSeconds} s interval)`,
    );
  }
  const lost = platform.queueStateLostSecondsAgo;
  if (lost !== null && lost <= QUEUE_LOSS_SHOWN_SECONDS) {
    degraded(
      'queue_state_lost',
      `the job queue lost its state ${minutes(lost)} ago and was repaired (schedulers re-created, unfinished work enqueued again)`,
    );
  }
  const gaps = facts.mappingGaps ? mappingGapReason(facts.mappingGaps) : null;
  if (gaps !== null) degraded('mapping_gaps', gaps);
  const failures = openFailuresReason(facts);
  if (failures !== null) degraded(failures.code, failures.text);

  const state: ShopHealthState = causes.some((c) => c.severity === 'failing')
    ? 'failing'
    : causes.length > 0
      ? 'degraded'
      : 'healthy';
  if (state === 'healthy') return { state, reasons: ['everything gets through'], causes: [] };
  return { state, reasons: causes.map((c) => c.text), causes };
}

/** "the catalog answers 500 to 100% of product writes (8 of 8 in the last 5 min)". */
function serverErrorWords(catalog: CatalogEvidence, fives: number): string {
  const statuses = Object.keys(catalog.serverErrors).sort().join(' or ');
  return `the catalog answers ${statuses || '5xx'} to ${percent(fives / Math.max(1, catalog.writes))} of product writes (${fives} of ${catalog.writes} in the last ${catalog.windowMinutes} min)`;
}

/** "open failures: 2 sync-product: the catalog answers ...", the commonest code's cause first. */
function openFailuresReason(facts: ShopHealthFacts): { code: CauseCode; text: string } | null {
  const kinds = Object.entries(facts.openFailures).filter(([, count]) => count > 0);
  if (kinds.length === 0) return null;
  const codes = Object.entries(facts.openFailureCodes)
    .filter(([, count]) => count > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const top = codes[0]?.[0] ?? null;
  const why = codes.map(([code]) => errorInWords(code)).join('; ');
  const held =
    facts.heldByFailures === 0
      ? ''
      : `; ${facts.heldByFailures === 1 ? '1 delivery' : `${facts.heldByFailures} deliveries`} held until replayed`;
  return {
    code: (top === null ? null : causeOfError(top)) ?? 'open_failures',
    text: `open failures: ${kinds.map(([kind, count]) => `${count} ${kind}`).join(', ')}${why ? `: ${why}` : ''}${held}`,
  };
}

function suffix(detail: string | null): string {
  return detail ? ` (${detail})` : '';
}

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

/** A duration in words: seconds under two minutes, then minutes, then hours. */
export function minutes(seconds: number): string {
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}
