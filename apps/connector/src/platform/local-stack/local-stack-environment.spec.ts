import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConnectorConfig } from '../config/connector.config.js';
import { demoMappingPath, localStackEnvironment } from './local-stack-environment.js';

describe('localStackEnvironment', () => {
  it('configures the demo shop against the seeded catalog account, through the sandboxes', () => {
    const config = loadConnectorConfig(
      localStackEnvironment({ catalogUrl: 'http://127.0.0.1:4010', shopifyUrl: 'http://127.0.0.1:4020' }),
    );
    expect(config.http).toMatchObject({ port: 3000, publicUrl: 'http://127.0.0.1:3000' });
    expect(config.shopify.adminOrigin).toBe('http://127.0.0.1:4020');
    expect(config.database.url).toBeNull();
    expect(config.queue.redisUrl).toBeNull();
    const [shop] = config.shops;
    expect(shop?.domain).toBe('demo.myshopify.com');
    expect(shop?.auth).toMatchObject({
      kind: 'client-credentials',
      app: { clientId: 'sandbox-app-client-id' },
    });
    expect(shop?.auth.app?.clientSecret.reveal()).toBe('sandbox-app-secret');
    // The app's client secret verifies the webhooks (no webhook secret set).
    expect(shop?.webhookSecrets.map((s) => s.reveal())).toEqual(['sandbox-app-secret']);
    expect(config.encryption.keys).toHaveLength(1);
    expect(shop?.catalog).toMatchObject({ baseUrl: 'http://127.0.0.1:4010' });
    expect(shop?.catalog.apiKey.reveal()).toBe('demo-api-key-0001');
    expect(shop?.mappingFile).toBe(fileURLToPath(new URL('../../../mappings/demo.yaml', import.meta.url)));
    expect(config.admin.token?.reveal()).toBe('connector-admin-token');
    expect(config.media).toMatchObject({ enabled: true, allowedHosts: ['http://127.0.0.1:4020'] });
  });

  it('finds the demo mapping from the build in dist/ as from the sources', () => {
    const root = fileURLToPath(new URL('../../../../../', import.meta.url));
    const expected = join(root, 'apps/connector/mappings/demo.yaml');
    expect(
      demoMappingPath(join(root, 'dist/apps/connector/src/platform/local-stack/local-stack-environment.js')),
    ).toBe(expected);
    expect(
      demoMappingPath(join(root, 'apps/connector/src/platform/local-stack/local-stack-environment.ts')),
    ).toBe(expected);
    expect(() => demoMappingPath('/nowhere/at/all.js')).toThrow(/demo\.yaml not found/);
  });
});
