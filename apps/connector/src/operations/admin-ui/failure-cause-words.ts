/**
 * Why: a failure's cause in words and what to do next, for the codes failures carry (the catalog
 * client's, the catalog's, Shopify's, the media stage's, the queue's). One table, looked up by
 * code; the overview's table of causes (issue 42) is meant to absorb it: merge the entries, keep
 * `causeInWords` as the one look-up. A code not listed reads as itself with a generic next step.
 */
const WORDS: Readonly<Record<string, { words: string; next: string }>> = {
  // The catalog, as its client reports it.
  internal_error: {
    words: 'The catalog answered 500: an error on its side.',
    next: 'It usually passes: the next successful run resolves this failure. If it persists, check the catalog, then Replay.',
  },
  create_outcome_unknown: {
    words:
      'A create in the catalog may or may not have happened: its answer was lost and the connector could not tell which.',
    next: 'Replay: the sync looks the record up by its supplierSku before creating it again, so nothing is created twice.',
  },
  write_outcome_unknown: {
    words: 'An update or delete in the catalog may have been applied: its answer was lost.',
    next: 'Replay: the sync reads the record again before deciding what to send.',
  },
  circuit_open: {
    words:
      'The connector stopped calling the catalog for a while after repeated errors (its circuit breaker is open).',
    next: 'Work waits by itself while the breaker is open; once the catalog answers again, Replay.',
  },
  rate_limited: {
    words: 'The catalog refused calls: too many requests (429).',
    next: 'It passes by itself. If it keeps happening, lower CONNECTOR_CATALOG_RATE_PER_SECOND.',
  },
  rate_limit_exceeded: {
    words: 'The catalog refused calls: too many requests (429).',
    next: 'It passes by itself. If it keeps happening, lower CONNECTOR_CATALOG_RATE_PER_SECOND.',
  },
  timeout: {
    words: 'The catalog (or the image host) did not answer in time.',
    next: 'It usually passes; Replay if the next run does not resolve it.',
  },
  network_error: {
    words: 'The catalog (or the image host) could not be reached: connection refused or dropped.',
    next: 'Check that CONNECTOR_CATALOG_URL is reachable from the connector, then Replay.',
  },
  invalid_response: {
    words: "The catalog's answer was not its JSON envelope (a proxy or gateway answered instead?).",
    next: 'Check what answers at CONNECTOR_CATALOG_URL, then Replay.',
  },
  limiter_unavailable: {
    words: "The rate limiter's store (Redis or PostgreSQL) failed, so the call was not sent.",
    next: 'Check Redis and PostgreSQL (/health), then Replay.',
  },
  unauthorized: {
    words: "The catalog refused the shop's API key (401).",
    next: "Set a valid key on the shop's Catalog key page, then Replay.",
  },
  catalog_key_refused: {
    words: "The catalog refused the shop's API key.",
    next: "Set a valid key on the shop's Catalog key page, then Replay.",
  },
  forbidden: {
    words: "The catalog's API key lacks a permission this call needs (403).",
    next: 'Give the key the permission in the catalog, then Replay.',
  },
  validation_error: {
    words: "The catalog refused the product's data as invalid.",
    next: 'Read the raw detail for the field; fix the mapping or the product in Shopify, then Replay.',
  },
  invalid_attribute_value: {
    words: "The catalog refused a value of the product's attributes.",
    next: 'Read the raw detail for the attribute; fix the mapping or the product, then Replay.',
  },
  missing_required_attribute: {
    words: 'The catalog needs an attribute the product does not have.',
    next: 'Map the attribute (or fill it in Shopify), then Replay.',
  },
  unknown_attribute: {
    words: 'The catalog does not know an attribute the mapping sends.',
    next: 'Fix the attribute key in the mapping file, then Replay.',
  },
  duplicate_supplier_sku: {
    words: 'Another catalog record already has this supplierSku.',
    next: 'Find the other record (raw detail); remove or rename it, then Replay.',
  },
  ambiguous_supplier_sku: {
    words: 'Several catalog records have this supplierSku: the connector cannot tell which is its own.',
    next: 'Remove the extra records in the catalog, then Replay.',
  },
  conflict: {
    words: 'The catalog refused the change: the record changed meanwhile (conflict).',
    next: 'Replay: the sync reads the record again first.',
  },
  // Shopify.
  shopify_unauthorized: {
    words: "Shopify refused the shop's access token (401): the app was uninstalled or its token revoked.",
    next: 'Re-install or re-authorize the app for the shop, then Replay.',
  },
  shopify_forbidden: {
    words: 'Shopify refused the call (403): the app lacks an access scope.',
    next: 'Grant the missing scopes (re-install the app), then Replay.',
  },
  shopify_access_denied: {
    words: 'Shopify denied access to a field or resource: the app lacks an access scope.',
    next: 'Grant the missing scopes (re-install the app), then Replay.',
  },
  shopify_shop_unavailable: {
    words: 'The shop is unavailable in Shopify (frozen, closed or locked).',
    next: 'Once the shop is open again, Replay.',
  },
  shopify_throttled: {
    words: "Shopify throttled the connector's calls (THROTTLED).",
    next: 'It passes by itself; Replay if the next run does not resolve it.',
  },
  shopify_unavailable: {
    words: 'Shopify answered with a server error (5xx).',
    next: 'It usually passes; Replay if the next run does not resolve it.',
  },
  shopify_network_error: {
    words: 'Shopify could not be reached: connection refused or dropped.',
    next: 'Check the connector can reach the shop, then Replay.',
  },
  shopify_invalid_query: {
    words: "Shopify refused the connector's query as invalid.",
    next: 'A connector bug or an API version mismatch: see the raw detail and the logs.',
  },
  shopify_graphql_error: {
    words: 'Shopify answered the query with an error.',
    next: 'See the raw detail; Replay once the cause is fixed.',
  },
  shopify_max_cost_exceeded: {
    words: 'The query cost more than Shopify allows in one call.',
    next: 'A connector limit to lower (page sizes): see the raw detail and the logs.',
  },
  shopify_http_error: {
    words: 'Shopify answered with an HTTP error.',
    next: 'See the raw detail; Replay once the cause is fixed.',
  },
  // Images (the media stage).
  forbidden_host: {
    words: "The image's URL is not on an allowed host, so it was never fetched.",
    next: 'Allow the host (CONNECTOR_MEDIA_ALLOWED_HOSTS) if it is trusted, then Replay.',
  },
  invalid_url: { words: "The image's URL cannot be used.", next: 'Fix the image in Shopify.' },
  redirect_refused: {
    words: "The image's URL redirects somewhere not allowed.",
    next: 'Fix the image in Shopify, or allow the host.',
  },
  not_found: {
    words: 'Not found: the image (or record) is gone.',
    next: 'Nothing to do if it was removed; otherwise Replay.',
  },
  http_error: {
    words: 'The image host refused the download (4xx).',
    next: 'Check the image in Shopify, then Replay.',
  },
  server_error: {
    words: 'The image host answered with an error (5xx, 408 or 429).',
    next: 'It usually passes; Replay if the next run does not resolve it.',
  },
  too_large: { words: 'The image is larger than the size cap.', next: 'Use a smaller image in Shopify.' },
  not_an_image: {
    words: 'The file is none of the image formats the catalog accepts.',
    next: 'Replace the image in Shopify.',
  },
  image_not_ready: {
    words: 'Shopify has no URL for the image yet (still processing).',
    next: 'It passes by itself; Replay if it does not.',
  },
  upload_url_expired: {
    words: "The catalog's upload URL expired before the image was sent.",
    next: 'Replay.',
  },
  upload_processing_timeout: {
    words: 'The catalog was still processing the upload when the connector stopped waiting.',
    next: 'Replay.',
  },
  upload_refused: {
    words: "The catalog's object store refused the image (type, size or content).",
    next: 'Replace the image in Shopify.',
  },
  upload_failed: { words: "The catalog's object store refused the upload.", next: 'Replay.' },
  catalog_unavailable: {
    words: 'A catalog call failed in a way that may pass (5xx, time-out, 429, breaker open).',
    next: 'It usually passes; Replay if the next run does not resolve it.',
  },
  // The queue and the connector itself.
  job_stalled: {
    words: 'The worker running the job stopped more than once (process killed or blocked).',
    next: 'Replay; if it recurs, look at the connector’s memory and restarts.',
  },
  job_started_too_often: {
    words: 'The job was started more times than allowed without finishing.',
    next: 'Replay; if it recurs, see the logs.',
  },
  unexpected_error: {
    words: 'An unexpected error in the connector.',
    next: 'See the raw detail and the logs; Replay once the cause is fixed.',
  },
};

/** A failure code's words and next step (the code itself, and a generic step, when not listed). */
export function causeInWords(code: string): { words: string; next: string } {
  return (
    WORDS[code] ?? {
      words: `The job failed with ${code}.`,
      next: 'See the raw detail and the logs; Replay once the cause is fixed, or Dismiss.',
    }
  );
}

const JOB_KINDS: Readonly<Record<string, string>> = {
  'sync-product': 'Product sync',
  'sync-media': 'Image sync',
  'enrichment-poll': 'Enrichment poll',
  'enrichment-push': 'Write-back to Shopify',
  'resync-page': 'Resync',
  'drift-report': 'Drift report',
};

/** A job kind in words (`sync-product`: "Product sync"); unknown kinds as they are. */
export function jobKindInWords(kind: string): string {
  return JOB_KINDS[kind] ?? kind;
}
