import { operation, query } from './openapi-operation.js';

const HTML = { mediaType: 'text/html', schema: { type: 'string' } };

/** Why: the overview's web view routes (the view's overview, shops, deliveries, sync records, write-backs and failures pages) in the document. */
export const OVERVIEW_PATHS: Record<string, Record<string, unknown>> = {
  '/admin/ui': {
    get: operation({
      operationId: 'uiOverview',
      tag: 'admin-ui',
      summary:
        "The web view's overview: each shop's state, the numbers now, the last 24 hours (without a session: the sign-in form, 401)",
      description:
        'Server-rendered HTML, charts as inline SVG. The queues view (bull-board, read-only) is served under /admin/ui/queues/ with the same session.',
      security: 'adminSession',
      answer: HTML,
    }),
  },
  '/admin/ui/shops': {
    get: operation({
      operationId: 'uiShops',
      tag: 'admin-ui',
      summary: 'Every shop: auth state, mode, catalog key set, webhook subscriptions',
      security: 'adminSession',
      answer: HTML,
    }),
  },
  '/admin/ui/deliveries': {
    get: operation({
      operationId: 'uiDeliveries',
      tag: 'admin-ui',
      summary: "The inbox's latest webhook deliveries (200 at most), by shop, state and time",
      security: 'adminSession',
      parameters: [
        query('shop', 'Deliveries of this shop.'),
        query('state', 'Deliveries in this state.', { enum: ['received', 'done', 'rejected'] }),
        query('hours', 'Received in the last hours (1 to 720, default 24).'),
      ],
      answer: HTML,
    }),
  },
  '/admin/ui/write-backs': {
    get: operation({
      operationId: 'uiWriteBacks',
      tag: 'admin-ui',
      summary: 'The latest write-back history entries (200 at most), by shop and time',
      security: 'adminSession',
      parameters: [
        query('shop', 'Entries of this shop.'),
        query('hours', 'In the last hours (1 to 720, default 24).'),
      ],
      answer: HTML,
    }),
  },
  '/admin/ui/syncs': {
    get: operation({
      operationId: 'uiSyncRecords',
      tag: 'admin-ui',
      summary: 'The latest product sync records (200 at most), by shop, outcome and time',
      security: 'adminSession',
      parameters: [
        query('shop', 'Runs of this shop.'),
        query('outcome', 'Runs with this outcome.', {
          enum: ['synced', 'deleted', 'tombstoned', 'stale', 'nothing_pending', 'not_found', 'failed'],
        }),
        query('hours', 'Finished in the last hours (1 to 720, default 24).'),
      ],
      answer: HTML,
    }),
  },
  '/admin/ui/enrichment-polls': {
    get: operation({
      operationId: 'uiEnrichmentPolls',
      tag: 'admin-ui',
      summary:
        'The latest enrichment polls (200 at most): when, what each found, changed and gave push work, the lag it left, its outcome; by shop and time',
      security: 'adminSession',
      parameters: [
        query('shop', "That shop's part of each poll (failed polls too)."),
        query('hours', 'Started in the last hours (1 to 720, default 24).'),
      ],
      answer: HTML,
    }),
  },
  '/admin/ui/catalog-calls': {
    get: operation({
      operationId: 'uiCatalogCalls',
      tag: 'admin-ui',
      summary:
        "Each minute's catalog calls and 429 answers (every replica's) and the budget they used, by time",
      security: 'adminSession',
      parameters: [query('hours', 'In the last hours (1 to 720, default 24).')],
      answer: HTML,
    }),
  },
  '/admin/ui/failures': {
    get: operation({
      operationId: 'uiFailures',
      tag: 'admin-ui',
      summary: 'The failures inbox, with replay and dismiss',
      security: 'adminSession',
      parameters: [
        query('state', 'Failures in this state.', { enum: ['open', 'replayed', 'dismissed', 'resolved'] }),
        query('shop', 'Failures of this shop.'),
        query('hours', 'Failed last within the last hours (1 to 720; absent: any time).'),
      ],
      answer: HTML,
    }),
  },
};
