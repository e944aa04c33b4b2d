import { CAUSE_CODES, CAUSES, type CauseCode, nextStep, nextStepText } from './causes.js';

/**
 * The cause behind each error code the connector records or answers: a failure's code (the
 * catalog client's, the catalog's own, Shopify's), and the admin API's codes that have a next
 * step. Codes not listed have no cause of their own (their message says it).
 */
const ERROR_CAUSES: Readonly<Record<string, CauseCode>> = {
  // The catalog client's and the catalog's (libs/catalog-client, libs/catalog-contract).
  internal_error: 'catalog_server_errors',
  circuit_open: 'catalog_breaker_open',
  rate_limit_exceeded: 'catalog_rate_limited',
  timeout: 'catalog_unreachable',
  network_error: 'catalog_unreachable',
  invalid_response: 'catalog_unreachable',
  unauthorized: 'catalog_key_refused',
  forbidden: 'catalog_key_refused',
  catalog_key_refused: 'catalog_key_refused',
  create_outcome_unknown: 'catalog_create_unknown',
  write_outcome_unknown: 'catalog_write_unknown',
  unknown_attribute: 'catalog_refused_record',
  invalid_attribute_value: 'catalog_refused_record',
  missing_required_attribute: 'catalog_refused_record',
  validation_error: 'catalog_refused_record',
  // Shopify's (clients/shopify/shopify-admin.error.ts).
  shopify_unauthorized: 'shopify_token_refused',
  shopify_throttled: 'shopify_throttled',
  shopify_access_denied: 'shopify_scopes_missing',
  shopify_forbidden: 'shopify_scopes_missing',
  shopify_unavailable: 'shopify_unavailable',
  shopify_network_error: 'shopify_unavailable',
  // The connector's own.
  unexpected_error: 'connector_error',
  storage_unavailable: 'database_unavailable',
  catalog_unavailable: 'catalog_unreachable',
  insufficient_scopes: 'shopify_scopes_missing',
};

/** The cause of an error code, or null when it has none of its own. */
export function causeOfError(code: string): CauseCode | null {
  return ERROR_CAUSES[code] ?? null;
}

/** An error code in words (the cause's words, or the code itself when it has no cause). */
export function errorInWords(code: string): string {
  const cause = causeOfError(code);
  return cause === null ? code : CAUSES[cause].words;
}

/**
 * The admin API codes whose answer carries a `hint` (the next step), beside the causes above:
 * the ones an operator can act on. An internal error's hint names the log, never its content.
 */
const API_HINTS: Readonly<Record<string, string>> = {
  unauthorized:
    'Send `Authorization: Bearer <CONNECTOR_ADMIN_TOKEN>` (the web view signs in with the same token).',
  admin_disabled: 'Set CONNECTOR_ADMIN_TOKEN (or CONNECTOR_ADMIN_TOKEN_FILE) and restart the connector.',
  unknown_shop: 'The shop is not one the connector serves: `npm run connector -- shops` lists them.',
  not_ready: "The shop's mapping is not checked yet: wait a moment, or `npm run connector -- check-config`.",
  internal_error: "The connector's log has the stack under this answer's requestId.",
  failure_not_open:
    'The failure was replayed, dismissed or resolved already: the failures list shows its state.',
};

/** The admin API codes whose hint is a cause's words and next step. */
const API_CAUSES: Readonly<Record<string, CauseCode>> = {
  storage_unavailable: 'database_unavailable',
  catalog_unavailable: 'catalog_unreachable',
  shopify_unavailable: 'shopify_unavailable',
  insufficient_scopes: 'shopify_scopes_missing',
};

/**
 * The `hint` of an admin API error: its next step in one line, or null when it has none. An
 * error that knows its cause better than its code (`details.cause`, a cause code: PostgreSQL
 * out of connections rather than just unavailable) gets that cause's.
 */
export function hintFor(apiCode: string, details?: Record<string, unknown>): string | null {
  const named = details?.cause;
  const cause =
    typeof named === 'string' && (CAUSE_CODES as readonly string[]).includes(named)
      ? (named as CauseCode)
      : API_CAUSES[apiCode];
  if (cause === undefined) return API_HINTS[apiCode] ?? null;
  return `${capitalised(CAUSES[cause].words)}. ${nextStepText(nextStep(cause, null))}`;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
