/** JSON Schemas of the operations answers (health details, sync pauses, the queue view). */
const PAUSE = {
  type: 'object',
  required: ['scope', 'reason', 'since'],
  properties: {
    scope: { type: 'string', description: 'A shop domain, or `*` for every shop.' },
    reason: { type: 'string' },
    since: { type: 'string', format: 'date-time' },
  },
};
const DEPENDENCY = {
  type: 'object',
  required: ['status', 'checkedAt', 'details'],
  properties: {
    status: { enum: ['up', 'degraded', 'down', 'unknown'] },
    checkedAt: { type: ['string', 'null'], format: 'date-time' },
    details: {
      type: 'object',
      description:
        'Catalog: reachable, keyAccepted (null until an answer), breaker, shops. Shopify: reachable, tokenAccepted, error.',
    },
  },
};
const nullableNumber = { type: ['number', 'null'] };

/** Merged into the document's component schemas. */
export const OPERATIONS_SCHEMAS: Record<string, unknown> = {
  HealthDetails: {
    type: 'object',
    required: ['ready', 'checks', 'dependencies'],
    properties: {
      ready: { type: 'boolean' },
      checks: {
        type: 'object',
        properties: { database: { enum: ['up', 'down'] }, queue: { enum: ['up', 'down'] } },
      },
      dependencies: {
        type: 'object',
        description: '`catalog:<URL>#<key fingerprint>` and `shopify:<shop>` entries.',
        additionalProperties: DEPENDENCY,
      },
    },
  },
  SyncPauses: {
    type: 'object',
    required: ['pauses'],
    properties: {
      pauses: { type: 'array', items: PAUSE },
      shops: {
        type: 'array',
        items: { type: 'string' },
        description: 'The shops this call paused (none: every shop).',
      },
    },
  },
  SyncResume: {
    type: 'object',
    required: ['resumed', 'pauses'],
    properties: {
      resumed: { type: 'boolean' },
      shops: { type: 'array', items: { type: 'string' }, description: 'The shops this call resumed.' },
      pauses: { type: 'array', items: PAUSE },
    },
  },
  OperationsView: {
    type: 'object',
    required: ['queues', 'shops', 'pauses', 'catalog', 'enrichment'],
    properties: {
      queues: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            waiting: { type: 'integer' },
            active: { type: 'integer' },
            delayed: { type: 'integer' },
            failed: { type: 'integer' },
            paused: { type: 'boolean' },
          },
        },
      },
      shops: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            shop: { type: 'string' },
            paused: { type: 'boolean' },
            by: { enum: ['breaker', 'operator', 'catalog-key', null] },
            reason: { type: ['string', 'null'] },
            since: { type: ['string', 'null'] },
          },
        },
      },
      pauses: { type: 'array', items: PAUSE },
      catalog: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            account: { type: 'string', description: '`<URL>#<key fingerprint>`, never the key.' },
            shops: { type: 'array', items: { type: 'string' } },
            breaker: { enum: ['closed', 'open', 'half-open'] },
            callsLastMinute: { type: 'integer', description: 'Calls this replica made in the last 60 s.' },
            budgetPerMinute: { type: 'integer' },
          },
        },
      },
      enrichment: {
        type: 'object',
        description: 'Null fields until the enrichment stage reports them.',
        properties: {
          checkpoint: { type: ['string', 'null'] },
          lagSeconds: nullableNumber,
          watchlistSize: nullableNumber,
        },
      },
    },
  },
  ProductStatus: {
    type: 'object',
    required: ['shop', 'productId', 'mapRows', 'lastSync', 'lastError', 'catalog', 'media', 'writeBacks'],
    properties: {
      shop: { type: 'string' },
      productId: { type: 'string' },
      mapRows: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            kind: { type: 'string' },
            shopifyVariantId: { type: ['string', 'null'] },
            supplierSku: { type: 'string' },
            parentSupplierSku: { type: ['string', 'null'] },
            skuId: { type: ['string', 'null'] },
            state: { type: 'string' },
            appliedAt: { type: ['string', 'null'] },
            shopifyUpdatedAt: { type: ['string', 'null'] },
            gaps: {
              type: 'array',
              description: 'Attributes the last sync left out (a Shopify value with no catalog equivalent).',
              items: {
                type: 'object',
                required: ['entry', 'attribute', 'values', 'reason', 'message'],
                properties: {
                  record: { type: 'object' },
                  entry: { type: 'string' },
                  attribute: { type: 'string' },
                  values: { type: 'array', items: { type: 'string' } },
                  reason: { type: 'string', enum: ['unknown-value', 'invalid-value'] },
                  message: { type: 'string' },
                },
              },
            },
            notes: {
              type: 'array',
              description: 'What the last sync says about the record (e.g. enrichment-will-fail).',
              items: {
                type: 'object',
                required: ['code', 'message'],
                properties: {
                  code: {
                    type: 'string',
                    enum: ['enrichment-will-fail', 'unmapped-option', 'required-attribute-kept'],
                  },
                  message: { type: 'string' },
                  attribute: { type: 'string' },
                  option: { type: 'string' },
                },
              },
            },
          },
        },
      },
      lastSync: {
        type: ['object', 'null'],
        properties: {
          startedAt: { type: 'string' },
          finishedAt: { type: 'string' },
          reason: { type: 'string' },
          outcome: { type: 'string' },
          detail: { type: ['string', 'null'] },
          calls: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                method: { type: 'string' },
                path: { type: 'string' },
                status: { type: ['integer', 'null'] },
                code: { type: ['string', 'null'] },
                supplierSku: { type: 'string' },
              },
            },
          },
          error: { type: ['object', 'null'] },
        },
      },
      lastError: { type: ['object', 'null'] },
      catalog: {
        type: ['object', 'null'],
        properties: {
          skuId: { type: 'string' },
          enrichmentStatus: { type: ['string', 'null'] },
          attributeSummary: { type: ['object', 'null'] },
          error: { type: 'string' },
        },
      },
      media: {
        type: ['object', 'null'],
        description: 'The last media run of the product; null when none ran yet.',
        required: [
          'notes',
          'imageFailures',
          'images',
          'uploads',
          'writes',
          'lastRunAt',
          'foreignGalleryReplacedAt',
        ],
        properties: {
          shop: { type: 'string' },
          productId: { type: 'string' },
          notes: {
            type: 'array',
            description: 'e.g. replaced-foreign-gallery, gallery-truncated, variant-inheritance-broken.',
            items: {
              type: 'object',
              required: ['code', 'message'],
              properties: {
                code: { type: 'string' },
                message: { type: 'string' },
                supplierSku: { type: 'string' },
                skuId: { type: 'string' },
              },
            },
          },
          imageFailures: {
            type: 'array',
            description: 'Images left out of the catalog at the last run, and why.',
            items: {
              type: 'object',
              required: ['mediaId', 'stage', 'code', 'message', 'retryable'],
              properties: {
                mediaId: { type: 'string' },
                stage: { type: 'string', enum: ['fetch', 'upload', 'not-ready'] },
                code: { type: 'string' },
                message: { type: 'string' },
                retryable: { type: 'boolean' },
              },
            },
          },
          images: { type: 'integer' },
          uploads: { type: 'integer' },
          writes: { type: 'integer' },
          lastRunAt: { type: 'string', format: 'date-time' },
          foreignGalleryReplacedAt: { type: ['string', 'null'], format: 'date-time' },
        },
      },
      writeBacks: {
        type: ['array', 'null'],
        description:
          'The write-back push history, latest first (at most 50); null only when no write-back stage runs.',
        items: {
          type: 'object',
          required: ['at', 'field', 'outcome', 'conflict'],
          properties: {
            at: { type: 'string', format: 'date-time' },
            field: { type: 'string', description: 'The Shopify target, e.g. `seo.title`.' },
            outcome: {
              type: 'string',
              enum: ['ok', 'rejected', 'stale', 'unknown', 'throttled', 'conflict', 'unfit', 'landed'],
            },
            conflict: { type: 'boolean', description: 'A merchant edit took the field over.' },
            details: {
              type: 'object',
              properties: {
                attribute: { type: 'string' },
                target: { type: 'string' },
                owner: { type: 'string' },
                purpose: { type: 'string', enum: ['push', 'retract', 'conflict', 'settle'] },
                valueHash: { type: ['string', 'null'] },
                errors: { type: 'array', items: { type: 'string' } },
              },
            },
          },
        },
      },
    },
  },
};
