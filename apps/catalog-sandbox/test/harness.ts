import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type { Clock } from '#lib/clock';
import type { AccountDefinition } from '../src/accounts/account-definition.js';
import { loadCatalogSandboxConfig } from '../src/config/catalog-sandbox.config.js';
import type { SandboxBehaviour } from '../src/config/sandbox-behaviour.js';
import { createCatalogSandbox } from '../src/create-catalog-sandbox.js';

const SEED = fileURLToPath(new URL('../seed/default.json', import.meta.url));
const PORTAL_TOKEN = 'test-portal-token';

export interface SandboxHarnessOptions {
  clock?: Clock;
  /** Extra environment (CATALOG_SANDBOX_*), as an operator would set it. */
  env?: Record<string, string>;
}

export interface TestAccount {
  id: string;
  apiKey: string;
  /** Calls the /v1 API with this account's key. */
  api: {
    get(path: string): request.Test;
    post(path: string, body?: unknown): request.Test;
    patch(path: string, body?: unknown): request.Test;
    delete(path: string): request.Test;
  };
}

export interface CatalogSandboxHarness {
  url: string;
  portalToken: string;
  app: INestApplication;
  /** Calls the portal API with the portal token. */
  portal: {
    get(path: string): request.Test;
    post(path: string, body?: unknown): request.Test;
    patch(path: string, body?: unknown): request.Test;
    delete(path: string): request.Test;
  };
  /** Creates an account of its own (the default seed's configuration unless given). */
  createAccount(definition?: AccountDefinition): Promise<TestAccount>;
  close(): Promise<void>;
}

/** The default seed's account configuration, without id or keys, for tests to reuse. */
export function seedConfiguration(): Pick<AccountDefinition, 'taxonomy' | 'attributes'> {
  const seed = JSON.parse(readFileSync(SEED, 'utf8')) as { accounts: AccountDefinition[] };
  const demo = seed.accounts[0] as AccountDefinition;
  return { taxonomy: demo.taxonomy, attributes: demo.attributes };
}

/** Starts a catalog sandbox on a random port, with no seeded accounts. */
export async function startCatalogSandbox(
  options: SandboxHarnessOptions = {},
): Promise<CatalogSandboxHarness> {
  const config = loadCatalogSandboxConfig({
    CATALOG_SANDBOX_PORT: '0',
    CATALOG_SANDBOX_PORTAL_TOKEN: PORTAL_TOKEN,
    CATALOG_SANDBOX_SEED: 'none',
    // Most suites make many calls quickly; suites about the rate limit turn it on.
    CATALOG_SANDBOX_RATE_LIMIT: 'false',
    ...options.env,
  });
  const app = await createCatalogSandbox(config, { clock: options.clock, logLevels: ['error'] });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const portal = {
    get: (p: string) => request(url).get(p).set('X-Portal-Token', PORTAL_TOKEN),
    post: (p: string, b?: unknown) =>
      request(url)
        .post(p)
        .set('X-Portal-Token', PORTAL_TOKEN)
        .send(b as object),
    patch: (p: string, b?: unknown) =>
      request(url)
        .patch(p)
        .set('X-Portal-Token', PORTAL_TOKEN)
        .send(b as object),
    delete: (p: string) => request(url).delete(p).set('X-Portal-Token', PORTAL_TOKEN),
  };
  return {
    url,
    portalToken: PORTAL_TOKEN,
    app,
    portal,
    async createAccount(definition?: AccountDefinition & { behaviour?: Partial<SandboxBehaviour> }) {
      const apiKey = `test-key-${randomBytes(12).toString('hex')}`;
      const body = { ...seedConfiguration(), apiKeys: [{ key: apiKey, permissions: ['*'] }], ...definition };
      const res = await portal.post('/portal/v1/accounts', body);
      if (res.status !== 200)
        throw new Error(`account creation failed: ${res.status} ${JSON.stringify(res.body)}`);
      const key = definition?.apiKeys?.[0]?.key ?? apiKey;
      return { id: res.body.data.id as string, apiKey: key, api: apiFor(url, key) };
    },
    close: () => app.close(),
  };
}

export function apiFor(url: string, apiKey: string): TestAccount['api'] {
  return {
    get: (p) => request(url).get(p).set('X-API-Key', apiKey),
    post: (p, b) =>
      request(url)
        .post(p)
        .set('X-API-Key', apiKey)
        .send(b as object),
    patch: (p, b) =>
      request(url)
        .patch(p)
        .set('X-API-Key', apiKey)
        .send(b as object),
    delete: (p) => request(url).delete(p).set('X-API-Key', apiKey),
  };
}

/** A product body with the required attributes and any extra ones. */
export function productBody(supplierSku: string, extra: Array<{ key: string; value: unknown }> = []) {
  return {
    product: {
      supplierSku,
      attributes: [
        { key: 'name', value: `Product ${supplierSku}` },
        { key: 'brand', value: 'Acme' },
        ...extra,
      ],
    },
  };
}

/** The value of one attribute in a product record's `attributes`. */
export function attr(record: { attributes: Array<{ key: string; value: unknown }> }, key: string) {
  return record.attributes.find((a) => a.key === key);
}
