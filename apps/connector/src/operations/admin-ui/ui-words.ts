/**
 * The web view's own names in words: what the tables store (`nothing_pending`, `conflict`,
 * `metafield:$app:catalog.variant_title`) as an operator reads it. One table, so every page says
 * the same thing; error codes and causes are not here (the overview's causes table has them).
 */
const WORDS = {
  /** A product sync run's outcome (`SyncOutcome`, or `failed`); also a handled delivery's. */
  syncOutcome: {
    synced: 'synced',
    deleted: 'deleted from the catalog',
    tombstoned: 'skipped: the product was deleted',
    stale: 'skipped: an older change',
    nothing_pending: 'nothing to do',
    not_found: 'not found in Shopify',
    failed: 'failed',
  },
  /** Why a product sync ran (`SyncReason`). */
  syncReason: {
    webhook: 'a webhook',
    sweep: 'the inbox sweep',
    replay: 'a replayed failure',
    resync: 'a resync',
    reconcile: 'reconciling',
    drift: 'a mapping or catalog change',
    scope: 'a scope change',
    'go-live': 'going live',
    operator: 'an operator',
  },
  /** Where a webhook delivery stands in the inbox. */
  deliveryState: {
    received: 'waiting for its sync',
    done: 'handled',
    rejected: 'refused',
  },
  /** A delivery's topic. */
  topic: {
    'products/create': 'product created in Shopify',
    'products/update': 'product changed in Shopify',
    'products/delete': 'product deleted in Shopify',
    'app/uninstalled': 'app uninstalled',
    'shop/redact': 'shop data erasure',
  },
  /** What happened to one write-back (`PushResult`). */
  pushResult: {
    ok: 'written',
    landed: 'already in Shopify',
    conflict: "kept the merchant's edit",
    rejected: 'refused by Shopify',
    stale: 'changed meanwhile, retried',
    unknown: 'no answer, retried',
    throttled: 'throttled, retried',
    unfit: 'value does not fit the target',
  },
  /** Why a write-back entry exists (`purpose`). */
  pushPurpose: {
    push: 'approved content',
    retract: 'withdrawn content',
    conflict: 'merchant edit',
    settle: 'confirmed',
  },
  /** Who asked for an enrichment poll. */
  pollTrigger: {
    schedule: 'scheduled',
    early: 'early (records waiting)',
    admin: 'an operator',
  },
  /** A job's kind (the failures' `job_kind`). */
  jobKind: {
    'sync-product': 'product sync',
    'inbox-sweep': 'inbox sweep',
    'sync-media': 'media sync',
    'resync-page': 'resync',
    reconcile: 'reconciling',
    retention: 'retention',
    'enrichment-poll': 'enrichment poll',
    'enrichment-push': 'write-back',
    'subscription-check': 'webhook subscription check',
    'scope-walk': 'scope check',
    'drift-report': 'drift report',
  },
} as const satisfies Record<string, Record<string, string>>;

/** The kinds of names the table holds. */
export type WordKind = keyof typeof WORDS;

/**
 * Why: a stored name in words; a name the table does not know (a newer code) reads with its
 * `_` and `-` as spaces rather than not at all.
 */
export function inWords(kind: WordKind, name: string | null | undefined): string {
  if (name === null || name === undefined || name === '') return '';
  const table: Readonly<Record<string, string>> = WORDS[kind];
  return table[name] ?? name.replace(/[_-]/g, ' ');
}

const FIELD_TARGETS: Readonly<Record<string, string>> = {
  title: 'title',
  descriptionHtml: 'description',
  'seo.title': 'SEO title',
  'seo.description': 'SEO description',
  tags: 'tags',
};

/**
 * Why: a write-back target key (`seo.title`, `tags`, `metafield:$app:catalog.variant_title`) as
 * the Shopify field an operator knows: "SEO title", "metafield “variant title”".
 */
export function targetInWords(key: string): string {
  const field = FIELD_TARGETS[key];
  if (field !== undefined) return field;
  if (!key.startsWith('metafield:')) return key;
  const full = key.slice('metafield:'.length);
  const dot = full.lastIndexOf('.');
  const name = (dot < 0 ? full : full.slice(dot + 1)).replace(/[_-]+/g, ' ').trim();
  return `metafield “${name || full}”`;
}
