import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogSandboxHarness, startCatalogSandbox } from '#testing/catalog-sandbox';

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** Every route the running app registered, as "METHOD /openapi/{style}" strings. */
function registeredRoutes(sandbox: CatalogSandboxHarness): string[] {
  const express = sandbox.app.getHttpAdapter().getInstance() as { router: { stack: Layer[] } };
  return express.router.stack
    .filter((layer) => layer.route)
    .flatMap((layer) => {
      const route = layer.route as NonNullable<Layer['route']>;
      const path = route.path.replace(/:(\w+)/g, '{$1}').replace(/(.)\/$/, '$1');
      return Object.keys(route.methods).map((m) => `${m.toUpperCase()} ${path}`);
    });
}

describe('catalog sandbox: OpenAPI document', () => {
  let sandbox: CatalogSandboxHarness;
  let doc: {
    openapi: string;
    paths: Record<string, Record<string, unknown>>;
    components: { schemas: object };
  };
  beforeAll(async () => {
    sandbox = await startCatalogSandbox();
    const res = await request(sandbox.url).get('/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body;
  });
  afterAll(() => sandbox.close());

  it('is served without a key, as OpenAPI 3.1', () => {
    expect(doc.openapi).toBe('3.1.0');
  });

  it('documents every /v1, portal, object-store and CDN route the app serves', () => {
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
      ),
    );
    const served = registeredRoutes(sandbox).filter((r) => / \/(v1|portal\/v1|object-store|cdn)\//.test(r));
    expect(served.length).toBeGreaterThan(20);
    expect(served.filter((r) => !documented.has(r))).toEqual([]);
  });

  it('lists every behaviour switch an account accepts', async () => {
    const account = await sandbox.createAccount();
    const { body } = await sandbox.portal.get(`/portal/v1/accounts/${account.id}`);
    const schema = (doc.components.schemas as Record<string, { properties: object }>).Behaviour;
    expect(Object.keys(schema?.properties ?? {}).sort()).toEqual(Object.keys(body.data.behaviour).sort());
  });

  it('resolves every schema reference', () => {
    const refs = JSON.stringify(doc).match(/#\/components\/schemas\/\w+/g) ?? [];
    const names = new Set(Object.keys(doc.components.schemas));
    expect(refs.length).toBeGreaterThan(10);
    expect(refs.filter((r) => !names.has(r.split('/').pop() as string))).toEqual([]);
  });
});
