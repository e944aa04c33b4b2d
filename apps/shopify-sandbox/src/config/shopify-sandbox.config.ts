import { type Env, type EnvReader, loadConfig } from '#lib/config';
import { type AppConfig, readApps } from '../apps/app-config.js';
import {
  answeringVersion,
  parseApiVersions,
  STABLE_VERSION,
  UNSTABLE_VERSION,
} from '../common/api-versions.js';
import { isTimeZone } from '../common/shop-time.js';

/** The Admin API version the sandbox's schema comes from: every served version uses this schema. */
export const SANDBOX_API_VERSION = '2026-07';

/**
 * Supported stable versions by default: the four a store supports in late 2026 (each stable
 * version is supported for at least 12 months; 2026-10 became stable on 2026-10-01). From
 * configuration, never from the clock.
 */
export const DEFAULT_API_VERSIONS = ['2026-01', '2026-04', '2026-07', '2026-10'];

/**
 * How a product renders an empty `body_html`, `product_type`, `tags` or `template_suffix`:
 * `mixed` (faithful: `""` for some products and `null` for others, chosen per product by a
 * seeded draw), or always `empty-string` / always `null` (kinder: one form to handle).
 */
export type EmptyFieldsMode = 'mixed' | 'empty-string' | 'null';
/** The accepted values of `SHOPIFY_SANDBOX_EMPTY_FIELDS`. */
export const EMPTY_FIELDS_MODES: readonly EmptyFieldsMode[] = ['mixed', 'empty-string', 'null'];

export interface ShopConfig {
  /** The shop's `*.myshopify.com` domain, sent in `X-Shopify-Shop-Domain`. */
  domain: string;
  /** The Admin API access token (`X-Shopify-Access-Token`). Never logged nor echoed. */
  accessToken: string;
}

export interface ShopifySandboxConfig {
  /** HTTP port; 0 picks a free one. */
  port: number;
  /** Interface to listen on. */
  host: string;
  /** The app's API secret key: signs webhooks (`X-Shopify-Hmac-Sha256`). */
  appSecret: string;
  shops: ShopConfig[];
  /** Base URL for image `src`s; when absent, `http://127.0.0.1:<actual port>`. */
  publicUrl?: string;
  /** Header `X-Sandbox-Control-Token` must carry this on `/sandbox/...` routes. */
  controlToken: string;
  /** The shops' IANA time zone (daylight saving included), for REST-style timestamps. */
  timeZone: string;
  /** Supported stable Admin API versions, oldest first; older requests fall forward to the oldest. */
  apiVersions: string[];
  /** How products render empty text fields (see `EmptyFieldsMode`). */
  emptyFields: EmptyFieldsMode;
  webhooks: {
    /** Waits before each retry of a failed delivery; its length is the number of retries. */
    retryDelaysMs: number[];
    /** A delivery with no answer within this time has failed. */
    timeoutMs: number;
    /** The app's webhook API version, which new subscriptions inherit. */
    apiVersion: string;
    /** `products/update` of one product is delayed this long and sent once with the latest state; 0: one per write. */
    mergeWindowMs: number;
    /** A `products/create` is followed by a `products/update` of the same product (faithful: true). */
    updateAfterCreate: boolean;
    /** A write that changes nothing still bumps `updated_at` and fires `products/update` (faithful: true). */
    noopUpdates: boolean;
    /** An Admin API subscription is deleted after this many deliveries in a row failed every retry (Shopify: 1); 0: never. */
    removeAfterFailures: number;
  };
  cost: {
    /** Size of the leaky bucket of query-cost points (`maximumAvailable`). */
    bucketSize: number;
    /** Points restored per second (`restoreRate`). */
    restoreRate: number;
    /** A single query whose requested cost is above this fails with `MAX_COST_EXCEEDED`. */
    maxQueryCost: number;
  };
  /** Kinder-than-Shopify behaviours, all off by default; a test turns one on by name. */
  leniency: Leniency;
  /** The apps; the first is the default app (its secret is `appSecret`, the static tokens are its). */
  apps: AppConfig[];
  oauth: {
    /** Caps the life of every expiring access token (seconds); null: Shopify's lifetimes. */
    tokenTtlS: number | null;
    /** An authorize request is approved at once, as if the merchant clicked Install (kinder: false by default). */
    autoApprove: boolean;
  };
  /** Bulk query operations (`bulkOperationRunQuery`); see `BulkConfig`. */
  bulk: BulkConfig;
}

/** How bulk query operations run, and the switches that break them on purpose. */
export interface BulkConfig {
  /** Sandbox-clock wait before a run starts, and between two chunks of results. */
  stepMs: number;
  /** Objects written per step (the pace at which `objectCount` grows). */
  objectsPerStep: number;
  /** How long `url`/`partialDataUrl` live after the run ends (Shopify: 7 days); then the run is EXPIRED. */
  urlTtlMs: number;
  /** Bulk queries that may run at once per shop (Shopify from 2026-01: 5; before: 1). */
  maxConcurrentQueries: number;
  /** Fault: every run fails half way (FAILED, INTERNAL_SERVER_ERROR, a `partialDataUrl`). */
  failHalfway: boolean;
}

/** Shopify keeps bulk results for 7 days. */
export const BULK_RESULT_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The named kindnesses (`SHOPIFY_SANDBOX_LENIENT=metafield-values,global-ids`). Each one makes
 * the sandbox accept something real Shopify refuses; the default is none.
 */
export interface Leniency {
  /** `metafield-values`: any `type` is accepted and values are not checked against it. */
  metafieldValues: boolean;
  /** `global-ids`: an ID that is not a gid of the expected type reads as "not found" (null / userError). */
  globalIds: boolean;
  /** `product-limits`: no limits on tags, title and handle; a taken handle gets a `-1` suffix. */
  productLimits: boolean;
  /** `verbatim-values`: metafield values are stored and answered as sent, never in Shopify's form. */
  verbatimValues: boolean;
}

export const NO_LENIENCY: Leniency = {
  metafieldValues: false,
  globalIds: false,
  productLimits: false,
  verbatimValues: false,
};

/** Leniency names as written in `SHOPIFY_SANDBOX_LENIENT`. */
export const LENIENCY_NAMES: Record<string, keyof Leniency> = {
  'metafield-values': 'metafieldValues',
  'global-ids': 'globalIds',
  'product-limits': 'productLimits',
  'verbatim-values': 'verbatimValues',
};

export const DEFAULT_SHOP: ShopConfig = {
  domain: 'demo.myshopify.com',
  accessToken: 'shpat_sandbox_demo_token',
};
export const DEFAULT_APP_SECRET = 'sandbox-app-secret';
export const DEFAULT_CONTROL_TOKEN = 'sandbox-control-token';
export const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000];
/** A zone with daylight saving, so receivers meet both offsets. */
export const DEFAULT_TIME_ZONE = 'America/New_York';
/** "A short delay" (Shopify's words): a few hundred milliseconds. */
export const DEFAULT_MERGE_WINDOW_MS = 300;

/** Reads the sandbox's configuration from an environment map (`process.env` in main.ts). */
export function loadShopifySandboxConfig(env: Env): ShopifySandboxConfig {
  return loadConfig(env, (read) => {
    const port = read.port('SHOPIFY_SANDBOX_PORT', 4020);
    const publicUrl = read.optionalString('SHOPIFY_SANDBOX_PUBLIC_URL');
    if (publicUrl !== undefined) read.url('SHOPIFY_SANDBOX_PUBLIC_URL');
    const apiVersions = readApiVersions(read);
    return {
      port,
      host: read.string('SHOPIFY_SANDBOX_HOST', '127.0.0.1'),
      shops: readShops(read),
      publicUrl: publicUrl?.replace(/\/+$/, ''),
      controlToken: read.string('SHOPIFY_SANDBOX_CONTROL_TOKEN', DEFAULT_CONTROL_TOKEN),
      timeZone: readTimeZone(read),
      apiVersions,
      emptyFields: read.oneOf('SHOPIFY_SANDBOX_EMPTY_FIELDS', EMPTY_FIELDS_MODES, 'mixed'),
      webhooks: {
        retryDelaysMs: readDelays(read),
        timeoutMs: read.int('SHOPIFY_SANDBOX_WEBHOOK_TIMEOUT_MS', 5_000, { min: 1 }),
        apiVersion: readWebhookApiVersion(read, apiVersions),
        mergeWindowMs: read.int('SHOPIFY_SANDBOX_WEBHOOK_MERGE_WINDOW_MS', DEFAULT_MERGE_WINDOW_MS, {
          min: 0,
        }),
        updateAfterCreate: read.bool('SHOPIFY_SANDBOX_WEBHOOK_UPDATE_AFTER_CREATE', true),
        noopUpdates: read.bool('SHOPIFY_SANDBOX_WEBHOOK_NOOP_UPDATES', true),
        removeAfterFailures: read.int('SHOPIFY_SANDBOX_WEBHOOK_REMOVE_AFTER_FAILURES', 1, { min: 0 }),
      },
      // Shopify's standard plan: a 2,000-point bucket restoring 100 points per second, and a
      // single query may request at most 1,000 points (shopify.dev/docs/api/usage/limits).
      cost: {
        bucketSize: read.int('SHOPIFY_SANDBOX_COST_BUCKET_SIZE', 2_000, { min: 1 }),
        restoreRate: read.number('SHOPIFY_SANDBOX_COST_RESTORE_RATE', 100, { min: 0 }),
        maxQueryCost: read.int('SHOPIFY_SANDBOX_COST_MAX_QUERY_COST', 1_000, { min: 1 }),
      },
      leniency: readLeniency(read),
      ...readAppsAndSecret(read),
      oauth: {
        tokenTtlS: read.optionalString('SHOPIFY_SANDBOX_TOKEN_TTL_S')
          ? read.int('SHOPIFY_SANDBOX_TOKEN_TTL_S', 3_600, { min: 1 })
          : null,
        autoApprove: read.bool('SHOPIFY_SANDBOX_OAUTH_AUTO_APPROVE', false),
      },
      bulk: {
        stepMs: read.int('SHOPIFY_SANDBOX_BULK_STEP_MS', 200, { min: 0 }),
        objectsPerStep: read.int('SHOPIFY_SANDBOX_BULK_OBJECTS_PER_STEP', 500, { min: 1 }),
        urlTtlMs: read.int('SHOPIFY_SANDBOX_BULK_URL_TTL_MS', BULK_RESULT_TTL_MS, { min: 1 }),
        maxConcurrentQueries: read.int('SHOPIFY_SANDBOX_BULK_MAX_CONCURRENT_QUERIES', 5, { min: 1 }),
        failHalfway: read.bool('SHOPIFY_SANDBOX_BULK_FAIL_HALFWAY', false),
      },
    };
  });
}

/** The apps, and the app secret: the default (first) app's, which `SHOPIFY_SANDBOX_APP_SECRET` must not contradict. */
function readAppsAndSecret(read: EnvReader): { appSecret: string; apps: AppConfig[] } {
  const secret = read.optionalString('SHOPIFY_SANDBOX_APP_SECRET');
  const apps = readApps(read, secret ?? DEFAULT_APP_SECRET);
  const appSecret = apps[0]?.clientSecret ?? DEFAULT_APP_SECRET;
  if (secret !== undefined && secret !== appSecret) {
    read.problems.push(
      'SHOPIFY_SANDBOX_APP_SECRET differs from the first app of SHOPIFY_SANDBOX_APPS (the default app): set one of them',
    );
  }
  return { appSecret, apps };
}

/** `SHOPIFY_SANDBOX_LENIENT`: comma-separated leniency names, or `none`. */
function readLeniency(read: EnvReader): Leniency {
  const raw = read.optionalString('SHOPIFY_SANDBOX_LENIENT');
  const leniency = { ...NO_LENIENCY };
  if (raw === undefined || raw.trim() === 'none') return leniency;
  for (const name of raw.split(',').map((part) => part.trim())) {
    const key = LENIENCY_NAMES[name];
    if (key) leniency[key] = true;
    else {
      read.problems.push(
        `SHOPIFY_SANDBOX_LENIENT must list some of ${Object.keys(LENIENCY_NAMES).join(', ')} (or "none"), got "${name}"`,
      );
    }
  }
  return leniency;
}

/** `domain:token,domain:token`. Domains and tokens must be unique: the token picks the shop. */
function readShops(read: EnvReader): ShopConfig[] {
  const raw = read.optionalString('SHOPIFY_SANDBOX_SHOPS');
  if (raw === undefined) return [DEFAULT_SHOP];
  const shops: ShopConfig[] = [];
  for (const entry of raw.split(',').map((part) => part.trim())) {
    const at = entry.indexOf(':');
    const domain = at > 0 ? entry.slice(0, at).trim() : '';
    const accessToken = at > 0 ? entry.slice(at + 1).trim() : '';
    if (!isShopDomain(domain) || accessToken === '') {
      read.problems.push(
        'SHOPIFY_SANDBOX_SHOPS must be a comma-separated list of <shop>.myshopify.com:<token>',
      );
      return [DEFAULT_SHOP];
    }
    shops.push({ domain, accessToken });
  }
  const problem = shopListProblem(shops);
  if (problem) read.problems.push(`SHOPIFY_SANDBOX_SHOPS ${problem}`);
  return shops;
}

function readDelays(read: EnvReader): number[] {
  const raw = read.optionalString('SHOPIFY_SANDBOX_WEBHOOK_RETRY_DELAYS_MS');
  if (raw === undefined) return [...DEFAULT_RETRY_DELAYS_MS];
  if (raw.trim() === 'none') return [];
  const delays = raw.split(',').map((part) => part.trim());
  if (!delays.every((d) => /^\d+$/.test(d))) {
    read.problems.push(
      `SHOPIFY_SANDBOX_WEBHOOK_RETRY_DELAYS_MS must be comma-separated milliseconds (or "none"), got "${raw}"`,
    );
    return [...DEFAULT_RETRY_DELAYS_MS];
  }
  return delays.map(Number);
}

function readTimeZone(read: EnvReader): string {
  if (read.optionalString('SHOPIFY_SANDBOX_UTC_OFFSET_MINUTES') !== undefined) {
    read.problems.push(
      'SHOPIFY_SANDBOX_UTC_OFFSET_MINUTES was replaced by SHOPIFY_SANDBOX_TIME_ZONE (an IANA zone such as America/New_York)',
    );
  }
  const zone = read.string('SHOPIFY_SANDBOX_TIME_ZONE', DEFAULT_TIME_ZONE);
  if (isTimeZone(zone)) return zone;
  read.problems.push(
    `SHOPIFY_SANDBOX_TIME_ZONE must be an IANA time zone such as America/New_York, got "${zone}"`,
  );
  return DEFAULT_TIME_ZONE;
}

function readApiVersions(read: EnvReader): string[] {
  const raw = read.optionalString('SHOPIFY_SANDBOX_API_VERSIONS');
  if (raw === undefined) return [...DEFAULT_API_VERSIONS];
  const parsed = parseApiVersions(raw);
  if ('versions' in parsed) return parsed.versions;
  read.problems.push(`SHOPIFY_SANDBOX_API_VERSIONS ${parsed.problem}, got "${raw}"`);
  return [...DEFAULT_API_VERSIONS];
}

/** A stable handle or `unstable`; a retired one is allowed (deliveries fall forward), a future one is not. */
function readWebhookApiVersion(read: EnvReader, supported: string[]): string {
  const version = read.string('SHOPIFY_SANDBOX_WEBHOOK_API_VERSION', SANDBOX_API_VERSION);
  if (version !== UNSTABLE_VERSION && !STABLE_VERSION.test(version)) {
    read.problems.push(
      `SHOPIFY_SANDBOX_WEBHOOK_API_VERSION must be a version like 2026-07, got "${version}"`,
    );
  } else if (answeringVersion(version, supported) === undefined) {
    read.problems.push(
      `SHOPIFY_SANDBOX_WEBHOOK_API_VERSION ${version} is newer than every supported version (${supported.join(', ')})`,
    );
  }
  return version;
}

/** `name.myshopify.com`, as Shopify's own shop-domain check accepts. */
export function isShopDomain(domain: string): boolean {
  return /^[a-zA-Z0-9][a-zA-Z0-9-_]*\.myshopify\.com$/.test(domain);
}

/** Why a list of shops cannot be served (duplicate domain or token), or undefined. */
export function shopListProblem(shops: ShopConfig[]): string | undefined {
  const domains = new Set(shops.map((s) => s.domain));
  const tokens = new Set(shops.map((s) => s.accessToken));
  if (domains.size !== shops.length) return 'lists a shop domain twice';
  if (tokens.size !== shops.length) return 'gives two shops the same access token';
  return undefined;
}
