import { operation, query } from './openapi-operation.js';

const TEXT = { mediaType: 'text/plain', schema: { type: 'string' } };
const SHOP = query('shop', 'The shop installing the app: `<name>.myshopify.com`.');
const SHOP_PATH = {
  name: 'shop',
  in: 'path',
  required: true,
  description: '`<name>.myshopify.com`',
  schema: { type: 'string' },
};

/** The shops routes of the OpenAPI document: the list, and the install's OAuth routes. */
export const SHOPS_PATHS: Record<string, Record<string, unknown>> = {
  '/auth/shopify': {
    get: operation({
      operationId: 'beginInstall',
      tag: 'install',
      summary:
        "Start an install: a signed state cookie, then a redirect to the shop's authorize page (shops of kind installed)",
      description:
        '410 bot_refused: the User-Agent looks like a bot (the isbot rule of @shopify/shopify-api, which begins no OAuth for bots); open the link in a browser. Nothing is stored.',
      parameters: [SHOP],
      answer: TEXT,
      successStatus: 302,
      errors: [400, 404, 410],
    }),
  },
  '/auth/shopify/callback': {
    get: operation({
      operationId: 'completeInstall',
      tag: 'install',
      summary:
        "Shopify's redirect: HMAC, timestamp, state and shop checked, the code exchanged for an expiring token pair (stored encrypted)",
      description:
        'Query: code, hmac, host, shop, state, timestamp (as Shopify signs them). 400 install_refused: a forged or stale redirect, a wrong state, no state cookie; 403 insufficient_scopes: too few scopes granted. Nothing is stored on a refusal.',
      parameters: [SHOP],
      answer: TEXT,
      errors: [400, 403, 404],
    }),
  },
  '/admin/shops': {
    get: operation({
      operationId: 'listShops',
      tag: 'admin',
      summary:
        "Every shop: how it authenticates, its state, its token expiry and scopes, its catalog key, the operator's next step",
      security: 'adminToken',
      answer: 'ShopList',
      errors: [401, 503],
    }),
  },
  '/admin/shops/reencrypt': {
    post: operation({
      operationId: 'reencryptShopSecrets',
      tag: 'admin',
      summary:
        'Re-encrypt under the first of CONNECTOR_ENCRYPTION_KEYS every stored secret (catalog keys, token pairs) an older listed key holds',
      description:
        'Each replica also does it at boot. The answer counts what this pass re-encrypted and what is left: the old key can be dropped once `secretsUnderOldKeys` is 0.',
      security: 'adminToken',
      answer: 'ShopSecretsReencrypted',
      errors: [401, 503],
    }),
  },
  '/admin/shops/{shop}/catalog-key': {
    put: operation({
      operationId: 'setShopCatalogKey',
      tag: 'admin',
      summary:
        'Set the catalog API key of a shop that installed the app (stored encrypted, never shown); its waiting syncs resume',
      description:
        'Body `{"apiKey": "..."}`. 404: no such shop; 409 shop_configured: the shop is configured in the environment.',
      security: 'adminToken',
      parameters: [SHOP_PATH],
      body: {
        type: 'object',
        required: ['apiKey'],
        properties: { apiKey: { type: 'string', minLength: 1, maxLength: 512, pattern: '^\\S+$' } },
      },
      answer: 'ShopEntry',
      errors: [400, 404, 409, 413],
    }),
  },
  '/admin/shops/{shop}/mapping': {
    put: operation({
      operationId: 'setShopMapping',
      tag: 'admin',
      summary:
        'Set the mapping file of a shop that installed the app (checked before it is kept), or null for the default',
      description:
        'Body `{"file": "/path/mapping.yaml"}` or `{"file": null}` (`CONNECTOR_DEFAULT_MAPPING_FILE`). 400: the file cannot be read or is refused (each problem named).',
      security: 'adminToken',
      parameters: [SHOP_PATH],
      body: {
        type: 'object',
        required: ['file'],
        properties: { file: { type: ['string', 'null'] } },
      },
      answer: 'ShopEntry',
      errors: [400, 404, 409, 413],
    }),
  },
  '/admin/shops/{shop}/mode': {
    put: operation({
      operationId: 'setShopMode',
      tag: 'admin',
      summary:
        'Switch a shop between live (its writes are sent) and shadow (they are recorded as planned writes instead)',
      description:
        'Body `{"mode": "live"}` or `{"mode": "shadow"}`. From shadow to live: the planned writes are cleared and every product they were for is synced again (reason `go-live`). 404: no such shop; 409 mode_pinned: `CONNECTOR_SHOP_<KEY>_MODE` pins the mode.',
      security: 'adminToken',
      parameters: [SHOP_PATH],
      body: {
        type: 'object',
        required: ['mode'],
        properties: { mode: { type: 'string', enum: ['live', 'shadow'] } },
      },
      answer: 'ShopEntry',
      errors: [400, 404, 409, 413],
    }),
  },
  '/admin/shops/{shop}/preview': {
    get: operation({
      operationId: 'previewShop',
      tag: 'admin',
      summary:
        "What a shop in shadow would have sent: counts of creates, patches, deletes, uploads, write-backs by target, conflicts and mapping gaps, and per product each record's field diffs and final state",
      description:
        "Built from the planned writes (each product's latest plan): catalog calls, media uploads, and the write-back's Shopify mutations (a product's targets are one record with `source: shopify`). `?format=csv`: the same as a CSV file (`text/csv`), one line per changed field. 404: no such shop.",
      security: 'adminToken',
      parameters: [SHOP_PATH, query('format', '`json` (default) or `csv`', { enum: ['json', 'csv'] })],
      answer: 'ShopPreview',
      errors: [400, 404],
    }),
  },
  '/admin/shops/{shop}/migrate-token': {
    post: operation({
      operationId: 'migrateShopToken',
      tag: 'admin',
      summary:
        "Exchange a static shop's legacy non-expiring token for expiring ones (auth.migrateToExpiringToken); Shopify revokes the old token",
      description:
        "400: the app's credentials are not set; 409 already_migrated (or not static), 409 migration_refused: Shopify refused the token; 503 shopify_unavailable.",
      security: 'adminToken',
      parameters: [SHOP_PATH],
      answer: 'ShopEntry',
      errors: [400, 404, 409],
    }),
  },
};

const nullableTime = { type: ['string', 'null'], format: 'date-time' };

const attributeValue = { type: ['string', 'array', 'null'], items: { type: 'string' } };

/** JSON Schemas of the shops answers. */
export const SHOPS_SCHEMAS: Record<string, unknown> = {
  ShopPreview: {
    type: 'object',
    required: ['shop', 'mode', 'counts', 'products'],
    properties: {
      shop: { type: 'string' },
      mode: { enum: ['live', 'shadow'] },
      counts: {
        type: 'object',
        required: [
          'creates',
          'patches',
          'deletes',
          'uploads',
          'writeBacks',
          'conflicts',
          'mappingGaps',
          'total',
        ],
        properties: {
          creates: { type: 'integer' },
          patches: { type: 'integer' },
          deletes: { type: 'integer' },
          uploads: { type: 'integer', description: 'Media uploads held back.' },
          writeBacks: {
            type: 'object',
            required: ['total', 'byTarget'],
            description:
              'Write-back targets a live push would write, by target (`seo.title`, `$app:catalog.material`).',
            properties: {
              total: { type: 'integer' },
              byTarget: { type: 'object', additionalProperties: { type: 'integer' } },
            },
          },
          conflicts: { type: 'integer', description: "Write-backs a merchant's edit holds back." },
          mappingGaps: {
            type: 'integer',
            description: 'Values the mapping cannot map, over the planned records.',
          },
          total: { type: 'integer' },
        },
      },
      products: {
        type: 'array',
        items: {
          type: 'object',
          required: ['productId', 'plannedAt', 'records'],
          properties: {
            productId: { type: 'string' },
            plannedAt: { type: 'string', format: 'date-time' },
            records: {
              type: 'array',
              items: {
                type: 'object',
                required: ['kind', 'source', 'supplierSku', 'calls', 'diffs', 'finalState'],
                properties: {
                  kind: {
                    enum: ['record', 'upload'],
                    description:
                      '`upload`: one image the media step would upload (`image`; `supplierSku`: the record whose planned gallery holds it, empty when none; `finalState`: its image map entry `shopifyMediaId`, `sourceUrl`, `fileId`).',
                  },
                  image: {
                    type: 'object',
                    required: ['shopifyMediaId', 'sourceUrl'],
                    description: '`upload` rows only: the image uploaded.',
                    properties: {
                      shopifyMediaId: { type: 'string' },
                      sourceUrl: { type: ['string', 'null'] },
                    },
                  },
                  source: {
                    enum: ['catalog', 'shopify'],
                    description:
                      "`shopify`: the product's write-back targets (supplierSku empty; fields named by target, `@<variant id>` for a variant's).",
                  },
                  supplierSku: { type: 'string' },
                  calls: {
                    type: 'array',
                    items: { type: 'string' },
                    description: '`POST /v1/products`, ...',
                  },
                  diffs: {
                    type: 'array',
                    items: {
                      type: 'object',
                      required: ['field', 'before', 'after'],
                      properties: {
                        field: { type: 'string' },
                        before: attributeValue,
                        after: attributeValue,
                      },
                    },
                  },
                  finalState: {
                    type: ['object', 'null'],
                    description: "The record's attributes once the planned writes are sent; null: deleted.",
                  },
                },
              },
            },
          },
        },
      },
    },
  },
  ShopList: {
    type: 'object',
    required: ['shops', 'encryption'],
    properties: {
      shops: { type: 'array', items: { $ref: '#/components/schemas/ShopEntry' } },
      encryption: { $ref: '#/components/schemas/EncryptionState' },
    },
  },
  EncryptionState: {
    type: 'object',
    required: ['currentKey', 'secretsUnderOldKeys', 'unreadableSecrets'],
    properties: {
      currentKey: {
        type: ['string', 'null'],
        description: 'The fingerprint of the key that encrypts (the first of CONNECTOR_ENCRYPTION_KEYS).',
      },
      secretsUnderOldKeys: {
        type: 'integer',
        description: 'Stored secrets under an older listed key: drop it once this is 0.',
      },
      unreadableSecrets: {
        type: 'integer',
        description:
          'Stored secrets under a key no longer listed (CONNECTOR_ENCRYPTION_LOST_KEYS): their shops wait until repaired.',
      },
    },
  },
  ShopSecretsReencrypted: {
    type: 'object',
    required: ['currentKey', 'reencrypted', 'secretsUnderOldKeys', 'unreadableSecrets'],
    properties: {
      currentKey: { type: ['string', 'null'] },
      reencrypted: { type: 'integer', description: 'Secrets this pass re-encrypted under the newest key.' },
      secretsUnderOldKeys: { type: 'integer' },
      unreadableSecrets: { type: 'integer' },
    },
  },
  ShopEntry: {
    type: 'object',
    required: [
      'shop',
      'authKind',
      'state',
      'stateReason',
      'tokenExpiresAt',
      'scopes',
      'lastRefreshAt',
      'refreshCount',
      'subscriptions',
      'subscriptionsCheckedAt',
      'subscriptionsRecreated',
      'installedAt',
      'ignoredDeliveries',
      'lastIgnoredDelivery',
      'catalogKeySet',
      'catalogKeyProblem',
      'secretsUnderOldKeys',
      'source',
      'mappingFile',
      'mode',
      'modePinned',
      'nextStep',
    ],
    properties: {
      shop: { type: 'string', description: '`<name>.myshopify.com`' },
      authKind: {
        enum: ['static', 'client-credentials', 'installed'],
        description: 'A static token, the client credentials grant, or an OAuth install.',
      },
      state: {
        enum: ['active', 'needs_reauth', 'uninstalled', 'redacted'],
        description: '`needs_reauth`: Shopify refused the credentials or refresh token; its jobs wait.',
      },
      stateReason: { type: ['string', 'null'] },
      tokenExpiresAt: { ...nullableTime, description: 'Null: the token does not expire.' },
      scopes: { type: ['array', 'null'], items: { type: 'string' } },
      lastRefreshAt: nullableTime,
      refreshCount: {
        type: 'integer',
        description: 'Tokens obtained since the shop was first served.',
      },
      subscriptions: {
        type: ['array', 'null'],
        items: { type: 'string' },
        description: 'Topics subscribed at the last scheduled check (null before one).',
      },
      subscriptionsCheckedAt: nullableTime,
      subscriptionsRecreated: {
        type: 'integer',
        description: 'Subscriptions the check created again.',
      },
      installedAt: {
        ...nullableTime,
        description: "When the shop's current installation began, as the connector saw it (null: not seen).",
      },
      ignoredDeliveries: {
        type: 'integer',
        description:
          'app/uninstalled and shop/redact deliveries ignored as older than the current installation.',
      },
      lastIgnoredDelivery: {
        type: ['string', 'null'],
        description: 'The last of them: its topic, X-Shopify-Triggered-At and why.',
      },
      catalogKeySet: { type: 'boolean' },
      catalogKeyProblem: {
        type: ['string', 'null'],
        description:
          'Why its stored catalog key cannot be used (its key left CONNECTOR_ENCRYPTION_KEYS): the shop is failing until the key is set again.',
      },
      secretsUnderOldKeys: {
        type: 'integer',
        description:
          'Its stored secrets under an older key of CONNECTOR_ENCRYPTION_KEYS, still to re-encrypt.',
      },
      source: {
        enum: ['configured', 'installed', 'gone'],
        description:
          '`installed`: it installed the app itself (a row of `shops`); `gone`: no longer served (redacted).',
      },
      mappingFile: { type: ['string', 'null'], description: 'The mapping file it syncs with.' },
      mode: {
        enum: ['live', 'shadow'],
        description:
          '`shadow`: its product, variant, tag and metafield writes are recorded as planned writes, not sent.',
      },
      modePinned: {
        type: 'boolean',
        description:
          'True: `CONNECTOR_SHOP_<KEY>_MODE` pins the mode (PUT .../mode answers 409 mode_pinned).',
      },
      nextStep: {
        type: ['string', 'null'],
        description:
          'What the operator does next: set the catalog key, start the offered first resync, finish a migration.',
      },
    },
  },
};
