import { randomBytes } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type { Clock } from '#lib/clock';
import type { AccountDefinition } from '../accounts/account-definition.js';
import { loadCatalogSandboxConfig } from '../config/catalog-sandbox.config.js';
import { type CatalogSandbox, createCatalogSandbox } from '../create-catalog-sandbox.js';
import { type PortalControls, portalFor } from './portal-controls.js';
import { seedConfiguration } from './test-bodies.js';

const PORTAL_TOKEN = 'test-portal-token';

export interface SandboxHarnessOptions {
  /** Drives the sandbox's time (rate limit, uploads, enrichment); the wall clock by default. */
  clock?: Clock;
  /** Extra environment (CATALOG_SANDBOX_*), as an operator would set it. */
  env?: Record<string, string>;
}

/** supertest calls bound to one credential header. */
export interface SandboxCaller {
  get(path: string): request.Test;
  post(path: string, body?: unknown): request.Test;
  put(path: string, body?: unknown): request.Test;
  patch(path: string, body?: unknown): request.Test;
  delete(path: string): request.Test;
}

export interface TestAccount {
  id: string;
  apiKey: string;
  /** Calls the /v1 API with this account's key. */
  api: SandboxCaller;
  /** This account's request log, faults, rate limit and keys (through the portal API). */
  controls: PortalControls;
}

export interface CatalogSandboxHarness {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  portalToken: string;
  app: INestApplication;
  /** The sandbox's app handle (accounts registry, address). */
  sandbox: CatalogSandbox;
  /** Calls the portal API with the portal token. */
  portal: SandboxCaller;
  /** Creates an account of its own (the default seed's configuration unless given). */
  createAccount(definition?: AccountDefinition): Promise<TestAccount>;
  /** One account's request log, faults, rate limit and keys. */
  controls(accountId: string): PortalControls;
  close(): Promise<void>;
}

/**
 * Starts a catalog sandbox in-process on a random port of 127.0.0.1, with no seeded accounts, a
 * test portal token and the rate limit off (suites about the rate limit turn it on per account
 * or with `env`). Everything else is the faithful default.
 */
export async function startCatalogSandbox(
  options: SandboxHarnessOptions = {},
): Promise<CatalogSandboxHarness> {
  const config = loadCatalogSandboxConfig({
    CATALOG_SANDBOX_HOST: '127.0.0.1',
    CATALOG_SANDBOX_PORT: '0',
    CATALOG_SANDBOX_PORTAL_TOKEN: PORTAL_TOKEN,
    CATALOG_SANDBOX_SEED: 'none',
    CATALOG_SANDBOX_RATE_LIMIT: 'false',
    ...options.env,
  });
  const sandbox = await createCatalogSandbox(config, { clock: options.clock, logger: ['error'] });
  const url = await sandbox.listen();
  const portal = callerFor(url, 'X-Portal-Token', PORTAL_TOKEN);
  const harness: CatalogSandboxHarness = {
    url,
    portalToken: PORTAL_TOKEN,
    app: sandbox.app,
    sandbox,
    portal,
    async createAccount(definition) {
      const apiKey = `test-key-${randomBytes(12).toString('hex')}`;
      const body = { ...seedConfiguration(), apiKeys: [{ key: apiKey, permissions: ['*'] }], ...definition };
      const res = await portal.post('/portal/v1/accounts', body);
      if (res.status !== 200)
        throw new Error(`account creation failed: ${res.status} ${JSON.stringify(res.body)}`);
      const key = definition?.apiKeys?.[0]?.key ?? apiKey;
      const id = res.body.data.id as string;
      return { id, apiKey: key, api: apiFor(url, key), controls: portalFor(harness, id) };
    },
    controls: (accountId) => portalFor(harness, accountId),
    close: () => sandbox.close(),
  };
  return harness;
}

/** supertest calls to the `/v1` API of the sandbox at `url` with `apiKey`. */
export function apiFor(url: string, apiKey: string): SandboxCaller {
  return callerFor(url, 'X-API-Key', apiKey);
}

function callerFor(url: string, header: string, value: string): SandboxCaller {
  const withBody = (test: request.Test, body: unknown) =>
    body === undefined ? test.set(header, value) : test.set(header, value).send(body as object);
  return {
    get: (path) => request(url).get(path).set(header, value),
    post: (path, body) => withBody(request(url).post(path), body),
    put: (path, body) => withBody(request(url).put(path), body),
    patch: (path, body) => withBody(request(url).patch(path), body),
    delete: (path) => request(url).delete(path).set(header, value),
  };
}
