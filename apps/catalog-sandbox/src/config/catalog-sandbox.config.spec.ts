import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '#lib/config';
import { repoRoot } from '../repo-root.js';
import { DEFAULT_SEED_PATH, DEV_PORTAL_TOKEN, loadCatalogSandboxConfig } from './catalog-sandbox.config.js';

describe('loadCatalogSandboxConfig', () => {
  it('defaults to 127.0.0.1:4010, the shipped seed, the development portal token and the hardest gap choices', () => {
    const config = loadCatalogSandboxConfig({});
    expect(config.http).toMatchObject({ host: '127.0.0.1', port: 4010 });
    expect(config.seedPath).toBe(join(repoRoot(), DEFAULT_SEED_PATH));
    expect(config.portal.token).toBe(DEV_PORTAL_TOKEN);
    expect(config.behaviour).toMatchObject({
      duplicateSupplierSku: 'allow',
      ambiguousSupplierSku: 'refuse',
      createStatus: 200,
      searchTieOrder: 'shuffled',
    });
    expect(config.search).toEqual({ tieSeed: 0 });
    expect(config.rateLimit).toEqual({ enabled: true, ratePerSecond: 4, burst: 8 });
  });

  it('reads port, portal token and seed from the environment; "none" loads no seed', () => {
    const config = loadCatalogSandboxConfig({
      CATALOG_SANDBOX_HOST: '0.0.0.0',
      CATALOG_SANDBOX_PORT: '5000',
      CATALOG_SANDBOX_PORTAL_TOKEN: 'secret',
      CATALOG_SANDBOX_SEED: 'none',
      CATALOG_SANDBOX_CREATE_STATUS: '201',
      CATALOG_SANDBOX_SEARCH_TIE_ORDER: 'creation',
      CATALOG_SANDBOX_SEARCH_TIE_SEED: '7',
    });
    expect(config.behaviour.searchTieOrder).toBe('creation');
    expect(config.search.tieSeed).toBe(7);
    expect(config).toMatchObject({
      http: { host: '0.0.0.0', port: 5000 },
      portal: { token: 'secret' },
      seedPath: null,
    });
    expect(config.behaviour.createStatus).toBe(201);
  });

  it('fails at boot naming each bad variable', () => {
    try {
      loadCatalogSandboxConfig({ CATALOG_SANDBOX_PORT: 'x', CATALOG_SANDBOX_PARENT_DELETE: 'maybe' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect(String(error)).toContain('CATALOG_SANDBOX_PORT');
      expect(String(error)).toContain('CATALOG_SANDBOX_PARENT_DELETE');
    }
  });
});
