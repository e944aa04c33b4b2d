/**
 * Every cause the connector names for a shop's state (`GET /admin/overview`, the web view,
 * `connector status`), for an open failure's error code and for an API error's `hint`: one table,
 * so the three say the same words and point to the same next step. Platform code, so every layer
 * may read it.
 */
export const CAUSE_CODES = [
  'catalog_server_errors',
  'catalog_rate_limited',
  'catalog_breaker_open',
  'catalog_unreachable',
  'catalog_key_refused',
  'catalog_key_unusable',
  'catalog_create_unknown',
  'catalog_write_unknown',
  'catalog_refused_record',
  'shopify_token_refused',
  'shopify_throttled',
  'shopify_scopes_missing',
  'shopify_unavailable',
  'app_uninstalled',
  'operator_pause',
  'mapping_invalid',
  'mapping_gaps',
  'database_unavailable',
  'database_out_of_connections',
  'queue_unavailable',
  'queue_out_of_connections',
  'queue_state_lost',
  'sync_backlog',
  'poll_lag',
  'connector_error',
  'open_failures',
] as const;
export type CauseCode = (typeof CAUSE_CODES)[number];

/** What to do about a cause: words, and a page of the web view and/or a command line. */
export interface NextStep {
  text: string;
  /** A page of the web view that shows or does it (null: none). */
  href: string | null;
  /** A command line (`npm run connector -- ...`, docs/cli.md) that shows or does it (null: none). */
  command: string | null;
}

/** One row of the table: the cause in words (without figures: the rules add them) and the next step. */
export interface CauseEntry {
  words: string;
  next(shop: string | null): NextStep;
}

const CLI = 'npm run connector --';
const q = (shop: string | null, name = 'shop') =>
  shop === null ? '' : `${name}=${encodeURIComponent(shop)}`;
const withShop = (path: string, shop: string | null, more = '') => {
  const query = [q(shop), more].filter(Boolean).join('&');
  return query ? `${path}?${query}` : path;
};
const shopFlag = (shop: string | null) => (shop === null ? '' : ` --shop ${shop}`);
const step = (text: string, href: string | null, command: string | null): NextStep => ({
  text,
  href,
  command,
});

const failures = (text: string) => (shop: string | null) =>
  step(text, withShop('/admin/ui/failures', shop), `${CLI} failures${shopFlag(shop)}`);

/** The table. */
export const CAUSES: Readonly<Record<CauseCode, CauseEntry>> = {
  catalog_server_errors: {
    words: 'the catalog answers with server errors (5xx)',
    next: (shop) =>
      step(
        "The catalog's own fault: its calls retry by themselves. Check the catalog's status; once it answers again, replay what failed.",
        '/admin/ui/catalog-calls?hours=1',
        `${CLI} replay --all${shopFlag(shop)}`,
      ),
  },
  catalog_rate_limited: {
    words: 'the catalog answers 429 (too many requests)',
    next: () =>
      step(
        "Another client spends the catalog key's budget, or the budget is set above the account's: give the connector a key of its own, or lower CONNECTOR_CATALOG_RATE_PER_SECOND.",
        '/admin/ui/catalog-calls?hours=1',
        null,
      ),
  },
  catalog_breaker_open: {
    words: 'the catalog breaker is open: calls to the catalog wait (circuit_open) until it answers again',
    next: () =>
      step(
        'It closes by itself once a trial call succeeds; the catalog calls show what it answered.',
        '/admin/ui/catalog-calls?hours=1',
        null,
      ),
  },
  catalog_unreachable: {
    words: 'the catalog does not answer (time-out or connection refused)',
    next: () =>
      step(
        'Check CONNECTOR_CATALOG_URL and the network; calls retry by themselves.',
        '/health',
        `${CLI} check-config`,
      ),
  },
  catalog_key_refused: {
    words: "the catalog refuses the shop's API key (401 or 403)",
    next: (shop) =>
      step(
        'Set a key the catalog accepts (with products read and write).',
        shop === null ? '/admin/ui/shops' : `/admin/ui/shops/${encodeURIComponent(shop)}/catalog-key`,
        shop === null ? `${CLI} shops` : `${CLI} shops catalog-key ${shop}`,
      ),
  },
  catalog_key_unusable: {
    words: "the shop's stored catalog key cannot be decrypted",
    next: (shop) =>
      step(
        'Set the key again (CONNECTOR_ENCRYPTION_KEYS lost the key it was encrypted with).',
        shop === null ? '/admin/ui/shops' : `/admin/ui/shops/${encodeURIComponent(shop)}/catalog-key`,
        shop === null ? `${CLI} shops` : `${CLI} shops catalog-key ${shop}`,
      ),
  },
  catalog_create_unknown: {
    words:
      'a create in the catalog may have happened without an answer, and the look-up could not settle it (create_outcome_unknown)',
    next: failures(
      'Replay the failure once the catalog answers: the replay looks the record up by supplierSku before creating it again.',
    ),
  },
  catalog_write_unknown: {
    words: 'an update in the catalog may have happened without an answer (write_outcome_unknown)',
    next: failures('Replay the failure once the catalog answers: it reads the record before writing again.'),
  },
  catalog_refused_record: {
    words: 'the catalog refuses the record (an attribute or value it does not accept)',
    next: failures("Read the failure's message: fix the product in Shopify or the mapping, then replay it."),
  },
  shopify_token_refused: {
    words: "Shopify refuses the shop's token (401)",
    next: () =>
      step(
        'Authorise the app again (install link), or set a new access token for the shop.',
        '/admin/ui/shops',
        `${CLI} shops`,
      ),
  },
  shopify_throttled: {
    words: "Shopify throttles the shop's Admin API calls (THROTTLED: its cost bucket is empty)",
    next: (shop) =>
      step(
        'It passes by itself as the bucket refills; if it lasts, lower CONNECTOR_SYNC_CONCURRENCY.',
        withShop('/admin/ui/syncs', shop),
        null,
      ),
  },
  shopify_scopes_missing: {
    words: 'the app lacks an access scope Shopify asks for (ACCESS_DENIED)',
    next: () =>
      step(
        'Install the app again granting the scopes of docs/shop-auth.md, then replay what failed.',
        '/admin/ui/shops',
        `${CLI} shops`,
      ),
  },
  shopify_unavailable: {
    words: "Shopify's Admin API does not answer, or answers 5xx",
    next: (shop) =>
      step("Calls retry by themselves; check Shopify's status.", withShop('/admin/ui/syncs', shop), null),
  },
  app_uninstalled: {
    words: 'the app is uninstalled',
    next: () =>
      step(
        'Install the app again, or take the shop out of CONNECTOR_SHOPS.',
        '/admin/ui/shops',
        `${CLI} shops`,
      ),
  },
  operator_pause: {
    words: 'syncing is paused by an operator',
    next: (shop) =>
      step(
        'Resume syncing when the reason is gone.',
        shop === null ? '/admin/ui/shops' : `/admin/ui/shops/${encodeURIComponent(shop)}/resume`,
        null,
      ),
  },
  mapping_invalid: {
    words: 'its mapping is invalid',
    next: (shop) =>
      step(
        "Fix the mapping file (or the catalog account's attributes it names), then check it.",
        shop === null ? '/admin/ui/shops' : `/admin/ui/shops/${encodeURIComponent(shop)}/preview`,
        `${CLI} check-config${shopFlag(shop)}`,
      ),
  },
  mapping_gaps: {
    words: 'products the mapping cannot fully map (the catalog cannot fully enrich them)',
    next: (shop) =>
      step(
        'Read the reasons, map each (a leaf category, a required attribute) in the mapping file, then resync those products.',
        shop === null ? '/admin/ui/mapping-gaps' : `/admin/ui/mapping-gaps?shop=${encodeURIComponent(shop)}`,
        `${CLI} mapping-gaps${shopFlag(shop)}`,
      ),
  },
  database_unavailable: {
    words: 'PostgreSQL does not answer',
    next: () => step('Check DATABASE_URL and the database server.', '/health', `${CLI} check-config`),
  },
  database_out_of_connections: {
    words: 'PostgreSQL has no connection left (too many clients)',
    next: () =>
      step(
        "Raise the server's max_connections, or run fewer replicas (each holds its pools); with the queues on PostgreSQL, set REDIS_URL to move them to Redis.",
        '/health',
        null,
      ),
  },
  queue_unavailable: {
    words: 'the job queue does not answer: deliveries are kept, but nothing is synced',
    next: () =>
      step(
        'Check REDIS_URL and the Redis server (or DATABASE_URL for the PostgreSQL queue).',
        '/health',
        null,
      ),
  },
  queue_out_of_connections: {
    words: "the job queue's PostgreSQL has no connection left (too many clients)",
    next: () =>
      step(
        "Raise the server's max_connections or run fewer replicas; set REDIS_URL to move the queues to Redis.",
        '/health',
        null,
      ),
  },
  queue_state_lost: {
    words: 'the job queue lost its state and was repaired',
    next: () =>
      step(
        'Nothing to do if the backlog drains: the schedulers were re-created and unfinished work enqueued again.',
        '/admin/ui/queues',
        null,
      ),
  },
  sync_backlog: {
    words: 'deliveries wait for their sync',
    next: (shop) =>
      step(
        'See the deliveries waiting and the syncs that hold them.',
        withShop('/admin/ui/deliveries', shop, 'state=received'),
        null,
      ),
  },
  poll_lag: {
    words: 'no enrichment poll finished its work in time',
    next: () =>
      step(
        'See the polls and why they did not finish; poll now once the cause is gone.',
        '/admin/ui/enrichment-polls?hours=24',
        null,
      ),
  },
  connector_error: {
    words: 'an unexpected error in the connector',
    next: failures("The connector's log has the stack under the failure's job id; replay it once fixed."),
  },
  open_failures: {
    words: 'open failures',
    next: failures('Read each failure, fix its cause, then replay or dismiss it.'),
  },
};

/** The next step of a cause, for a shop (null: every shop). */
export function nextStep(cause: CauseCode, shop: string | null): NextStep {
  return CAUSES[cause].next(shop);
}

/** A next step as one line of text: the words, then the page and the command. */
export function nextStepText(next: NextStep): string {
  const where = [next.href, next.command === null ? null : `\`${next.command}\``].filter(Boolean);
  return where.length === 0 ? next.text : `${next.text} (${where.join(', ')})`;
}
