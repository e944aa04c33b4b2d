/**
 * The drift report's routes of the OpenAPI document and its answer's schema: kept apart from
 * `connector-openapi.ts` like the resync routes. `operation` is the document's operation builder.
 */

type OperationBuilder = (spec: {
  operationId: string;
  tag: 'admin';
  summary: string;
  description?: string;
  security: 'adminToken';
  parameters?: Array<Record<string, unknown>>;
  answer: string;
  errors?: number[];
  body?: Record<string, unknown>;
}) => Record<string, unknown>;

const KINDS = [
  'catalog-changed',
  'missed-webhook',
  'record-gone',
  'orphan',
  'duplicate',
  'written-back-differs',
  'no-longer-approved',
];
const value = { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }, { type: 'null' }] };
const nullableString = { type: ['string', 'null'] };

/** Why: every served route is documented (the operations e2e compares them). */
export function driftPaths(operation: OperationBuilder): Record<string, unknown> {
  return {
    '/admin/shops/{shop}/drift': {
      post: operation({
        operationId: 'runDriftReport',
        tag: 'admin',
        summary: 'Run a drift report of the shop now: where Shopify, the sku map and the catalog disagree',
        description:
          "Reads the shop (a bulk query above CONNECTOR_BULK_THRESHOLD mapped products, under the shop's bulk lock; id pages below) and the whole catalog account (searches of 500 at bulk priority: floor(records / 500) + 1 searches), compares them with the sku map, and stores the report beside the previous one (new, still open, resolved). A record counts as claimed when a map row of any shop the connector serves holds it (read after the catalog scan). An orphan's repair is delete-record only when the connector can prove the record is its own leftover (its derived <prefix>:product:<id> for a product Shopify no longer has, a prefix no other served shop uses, with its derived variant records); adopt when it names a product of the shop; else review (never deleted). Nothing is repaired. 503 catalog_unavailable (with Retry-After, details.reason and details.retryAt) while the catalog's breaker is open.",
        security: 'adminToken',
        parameters: [{ name: 'shop', in: 'path', required: true, schema: { type: 'string' } }],
        answer: 'DriftReport',
        errors: [404, 503],
      }),
    },
    '/admin/drift/{id}': {
      get: operation({
        operationId: 'getDriftReport',
        tag: 'admin',
        summary: 'A drift report with its findings, each with its repair',
        security: 'adminToken',
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[1-9][0-9]*$' } },
        ],
        answer: 'DriftReport',
        errors: [404],
      }),
    },
    '/admin/drift/{id}/repairs': {
      post: operation({
        operationId: 'repairDriftFindings',
        tag: 'admin',
        summary: 'Repair the findings an operator chose: body {"ids": [...]} or {"kind": "<kind>"}',
        description:
          "resync enqueues the product's sync (reason drift; a record-gone finding's record is created again under a new skuId: its enrichment is lost and values already written back to Shopify stay, as effect says); delete-record deletes the orphan or duplicate from the catalog after re-checking it against the catalog and the whole sku map now: refused, with the reason, when the record is gone, claimed now, not provably the connector's own (an orphan), when no claimed record holds a duplicate's supplierSku any more, or in shadow mode; a record holding approved enrichment answers needs-confirmation (loses names the attributes) unless confirmLoss names its skuId; review (an orphan whose owner cannot be proven) is always refused; adopt links an orphan to the product its supplierSku names and syncs it (a product with options whole: its orphan variant records <prefix>:variant:<id> with it; not-adoptable, with the reason, when it cannot); retract (no-longer-approved) runs the product's write-back now, taking the value out of Shopify and putting back the merchant's earlier one; accept-merchant (written-back-differs) keeps the merchant's edit (the target becomes the merchant's) and enqueues the product's sync. retract and accept-merchant are refused for a shop in shadow mode; failed says why a repair did not take. A finding already repaired is left.",
        security: 'adminToken',
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[1-9][0-9]*$' } },
        ],
        answer: 'DriftRepairs',
        errors: [400, 404, 503],
        body: {
          type: 'object',
          properties: {
            ids: { type: 'array', items: { type: 'string' }, description: 'Findings of the report.' },
            kind: { type: 'string', enum: KINDS, description: 'Every finding of this kind.' },
            preview: {
              type: 'boolean',
              description:
                'true: run nothing; each outcome is preview, with effect saying what the repair would do.',
            },
            confirmLoss: {
              type: 'array',
              items: { type: 'string' },
              description:
                'skuIds of records holding approved enrichment that may be deleted (their enrichment is lost for good).',
            },
          },
        },
      }),
    },
  };
}

export const DRIFT_SCHEMAS: Record<string, Record<string, unknown>> = {
  DriftRepairs: {
    type: 'object',
    required: ['repairs'],
    properties: {
      repairs: {
        type: 'array',
        items: {
          type: 'object',
          required: ['findingId', 'kind', 'repair', 'outcome'],
          properties: {
            findingId: { type: 'string' },
            kind: { type: 'string', enum: KINDS },
            repair: { type: 'string' },
            outcome: {
              type: 'string',
              enum: [
                'enqueued',
                'deleted',
                'adopted',
                'retracted',
                'accepted',
                'already-repaired',
                'not-adoptable',
                'refused',
                'needs-confirmation',
                'preview',
                'failed',
                'not-supported',
              ],
            },
            reason: { type: 'string', description: 'Why the repair was not made, when it was not.' },
            effect: {
              type: 'string',
              description:
                'What the repair does (in a preview: would do) beyond its name, when there is more to say.',
            },
            loses: {
              type: 'array',
              items: { type: 'string' },
              description: 'needs-confirmation: the approved attributes the delete would lose.',
            },
            skuId: { type: 'string', description: 'needs-confirmation: the record confirmLoss must name.' },
          },
        },
      },
    },
  },
  DriftReport: {
    type: 'object',
    required: [
      'id',
      'shop',
      'createdAt',
      'catalogSearches',
      'catalogRecords',
      'counts',
      'previousId',
      'new',
      'stillOpen',
      'resolved',
      'findings',
    ],
    properties: {
      id: { type: 'string', pattern: '^[1-9][0-9]*$' },
      shop: { type: 'string' },
      createdAt: { type: 'string', format: 'date-time' },
      catalogSearches: { type: 'integer' },
      catalogRecords: { type: 'integer' },
      counts: {
        type: 'object',
        additionalProperties: { type: 'integer' },
        description: `Findings per kind: ${KINDS.join(', ')}.`,
      },
      previousId: nullableString,
      new: { type: 'integer' },
      stillOpen: { type: 'integer' },
      resolved: {
        type: 'array',
        items: { type: 'string' },
        description: "Keys of the previous report's findings this one no longer finds.",
      },
      findings: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'kind', 'key', 'status', 'repair'],
          properties: {
            id: { type: 'string' },
            kind: { type: 'string', enum: KINDS },
            key: { type: 'string' },
            status: { type: 'string', enum: ['new', 'still-open'] },
            productId: nullableString,
            skuId: nullableString,
            supplierSku: nullableString,
            field: nullableString,
            expected: value,
            found: value,
            repair: {
              type: 'string',
              enum: ['resync', 'adopt', 'delete-record', 'retract', 'accept-merchant', 'review'],
            },
            parentSkuId: {
              type: 'string',
              description: "An orphan's or duplicate's parent record, when it is a variant record.",
            },
            ownerId: {
              type: 'string',
              description: "A written-back value's Shopify owner (product or variant gid).",
            },
            target: {
              type: 'string',
              description: "A written-back value's target (seo.title, tags, metafield:<namespace>.<key>).",
            },
            repairedAt: nullableString,
            repairOutcome: nullableString,
          },
        },
      },
    },
  },
};
