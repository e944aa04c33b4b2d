import { join } from 'node:path';
import { type Env, loadConfig } from '#lib/config';
import { repoRoot } from '../repo-root.js';
import { BEHAVIOUR_CHOICES, DEFAULT_BEHAVIOUR, type SandboxBehaviour } from './sandbox-behaviour.js';

export interface CatalogSandboxConfig {
  http: {
    /** Interface to listen on: loopback by default (the portal can create and delete accounts). */
    host: string;
    port: number;
    /** Base URL the sandbox is reached at (for URLs it hands out); derived from the port when unset. */
    publicUrl: string | null;
    /** Largest accepted JSON body on `/v1`, in bytes (1 MiB). */
    bodyLimitBytes: number;
    /** Largest accepted JSON body on `/portal/v1` (bulk fixtures are large), in bytes. */
    portalBodyLimitBytes: number;
  };
  portal: { token: string };
  /** Path of the seed file loaded at boot (a relative one is from the working directory), or null. */
  seedPath: string | null;
  behaviour: SandboxBehaviour;
  /** Seed of the per-request shuffle of search ties (`searchTieOrder: shuffled`). */
  search: { tieSeed: number };
  rateLimit: { ratePerSecond: number; burst: number; enabled: boolean };
  uploads: {
    /** Time from the PUT of the bytes to the end of processing, in ms (sandbox clock). */
    processingMs: number;
    /** Largest accepted object-store PUT, in bytes. */
    maxBytes: number;
    /** HMAC secret of the upload URLs; null draws a random one at boot. */
    objectStoreSecret: string | null;
  };
  enrichment: {
    /** Time between two state transitions of an automatic enrichment run, in ms (sandbox clock). */
    stepMs: number;
  };
}

export const DEV_PORTAL_TOKEN = 'sandbox-portal-token';
/** The shipped seed, relative to the repository root (where the default is looked up). */
export const DEFAULT_SEED_PATH = 'apps/catalog-sandbox/seed/default.json';

/** Reads the sandbox configuration from the environment (README, "Configuration"). */
export function loadCatalogSandboxConfig(env: Env): CatalogSandboxConfig {
  return loadConfig(env, (read) => {
    const seed = read.optionalString('CATALOG_SANDBOX_SEED') ?? join(repoRoot(), DEFAULT_SEED_PATH);
    return {
      http: {
        host: read.string('CATALOG_SANDBOX_HOST', '127.0.0.1'),
        port: read.port('CATALOG_SANDBOX_PORT', 4010),
        publicUrl: read.optionalString('CATALOG_SANDBOX_PUBLIC_URL') ?? null,
        bodyLimitBytes: read.int('CATALOG_SANDBOX_BODY_LIMIT_BYTES', 1_048_576, { min: 1024 }),
        portalBodyLimitBytes: read.int('CATALOG_SANDBOX_PORTAL_BODY_LIMIT_BYTES', 268_435_456, { min: 1024 }),
      },
      portal: { token: read.string('CATALOG_SANDBOX_PORTAL_TOKEN', DEV_PORTAL_TOKEN) },
      seedPath: seed === 'none' ? null : seed,
      behaviour: {
        duplicateSupplierSku: read.oneOf(
          'CATALOG_SANDBOX_DUPLICATE_SUPPLIER_SKU',
          BEHAVIOUR_CHOICES.duplicateSupplierSku,
          DEFAULT_BEHAVIOUR.duplicateSupplierSku,
        ),
        ambiguousSupplierSku: read.oneOf(
          'CATALOG_SANDBOX_AMBIGUOUS_SUPPLIER_SKU',
          BEHAVIOUR_CHOICES.ambiguousSupplierSku,
          DEFAULT_BEHAVIOUR.ambiguousSupplierSku,
        ),
        createStatus:
          read.oneOf('CATALOG_SANDBOX_CREATE_STATUS', ['200', '201'] as const, '200') === '201' ? 201 : 200,
        parentDelete: read.oneOf(
          'CATALOG_SANDBOX_PARENT_DELETE',
          BEHAVIOUR_CHOICES.parentDelete,
          DEFAULT_BEHAVIOUR.parentDelete,
        ),
        responseAttributes: read.oneOf(
          'CATALOG_SANDBOX_RESPONSE_ATTRIBUTES',
          BEHAVIOUR_CHOICES.responseAttributes,
          DEFAULT_BEHAVIOUR.responseAttributes,
        ),
        reviewTouchesUpdatedAt: read.bool('CATALOG_SANDBOX_REVIEW_TOUCHES_UPDATED_AT', false),
        enrichmentTouchesUpdatedAt: read.bool('CATALOG_SANDBOX_ENRICHMENT_TOUCHES_UPDATED_AT', false),
        searchTieOrder: read.oneOf(
          'CATALOG_SANDBOX_SEARCH_TIE_ORDER',
          BEHAVIOUR_CHOICES.searchTieOrder,
          DEFAULT_BEHAVIOUR.searchTieOrder,
        ),
      },
      search: { tieSeed: read.int('CATALOG_SANDBOX_SEARCH_TIE_SEED', 0, { min: 0 }) },
      rateLimit: {
        enabled: read.bool('CATALOG_SANDBOX_RATE_LIMIT', true),
        ratePerSecond: read.number('CATALOG_SANDBOX_RATE_PER_SECOND', 4, { min: 0.01 }),
        burst: read.int('CATALOG_SANDBOX_RATE_BURST', 8, { min: 1 }),
      },
      uploads: {
        processingMs: read.int('CATALOG_SANDBOX_UPLOAD_PROCESSING_MS', 3000, { min: 0 }),
        maxBytes: read.int('CATALOG_SANDBOX_UPLOAD_MAX_BYTES', 20_971_520, { min: 16 }),
        objectStoreSecret: read.optionalString('CATALOG_SANDBOX_OBJECT_STORE_SECRET') ?? null,
      },
      enrichment: {
        stepMs: read.int('CATALOG_SANDBOX_ENRICHMENT_STEP_MS', 1000, { min: 0 }),
      },
    };
  });
}
