import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '#lib/config';
import { loadConnectorConfig } from './connector.config.js';

const BASE = {
  CONNECTOR_SHOPS: 'demo.myshopify.com',
  CONNECTOR_CATALOG_URL: 'http://127.0.0.1:4010/',
  CONNECTOR_CATALOG_API_KEY: 'catalog-secret-key',
};
const KEY = randomBytes(32).toString('base64');
const APP = {
  CONNECTOR_SHOPIFY_CLIENT_ID: 'app-client-id',
  CONNECTOR_SHOPIFY_CLIENT_SECRET: 'app-client-secret',
  CONNECTOR_ENCRYPTION_KEYS: KEY,
};

function problemsOf(env: Record<string, string | undefined>): string {
  try {
    loadConnectorConfig(env, () => 'unused');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems.join('\n');
  }
  throw new Error('expected a ConfigError');
}

describe('how each shop authenticates', () => {
  it('uses client credentials when the shop has no token, and the client secret verifies webhooks', () => {
    const config = loadConnectorConfig({ ...BASE, ...APP });
    const [shop] = config.shops;
    expect(shop?.auth).toMatchObject({ kind: 'client-credentials', app: { clientId: 'app-client-id' } });
    expect(shop?.auth.app?.clientSecret.reveal()).toBe('app-client-secret');
    expect(shop?.webhookSecrets.map((s) => s.reveal())).toEqual(['app-client-secret']);
    expect(config.encryption.keys.map((k) => k.reveal())).toEqual([KEY]);
    expect(config.encryption.lostKeys).toEqual([]);
    const lost = loadConnectorConfig({
      ...BASE,
      ...APP,
      CONNECTOR_ENCRYPTION_LOST_KEYS: ' 0A1B2C3D, ffff0000 ',
    });
    expect(lost.encryption.lostKeys).toEqual(['0a1b2c3d', 'ffff0000']);
    expect(JSON.stringify(config)).not.toContain('app-client-secret');
    expect(JSON.stringify(config)).not.toContain(KEY);
  });

  it('keeps the webhook secrets when set, and takes per-shop credentials over the defaults', () => {
    const config = loadConnectorConfig(
      {
        ...BASE,
        ...APP,
        CONNECTOR_SHOPS: 'demo.myshopify.com,acme.myshopify.com',
        CONNECTOR_WEBHOOK_SECRETS: 'hook-secret',
        CONNECTOR_SHOP_ACME_AUTH: 'installed',
        CONNECTOR_SHOP_ACME_CLIENT_ID: 'acme-app',
        CONNECTOR_SHOP_ACME_CLIENT_SECRET_FILE: '/run/secrets/acme',
      },
      (path) => (path === '/run/secrets/acme' ? 'from-file\n' : ''),
    );
    const [demo, acme] = config.shops;
    expect(demo?.webhookSecrets.map((s) => s.reveal())).toEqual(['hook-secret']);
    expect(acme?.auth).toMatchObject({ kind: 'installed', app: { clientId: 'acme-app' } });
    expect(acme?.auth.app?.clientSecret.reveal()).toBe('from-file');
  });

  it('keeps a static token static, with the app credentials beside it when set', () => {
    const config = loadConnectorConfig({
      ...BASE,
      CONNECTOR_SHOP_DEMO_ACCESS_TOKEN: 'shpat_x',
      CONNECTOR_WEBHOOK_SECRETS: 's',
    });
    expect(config.shops[0]?.auth).toMatchObject({ kind: 'static', app: null });
    expect(config.encryption.keys).toEqual([]);
  });

  it('stops the boot naming what is missing: credentials, the encryption keys, a bad key', () => {
    expect(problemsOf({ ...BASE, CONNECTOR_SHOP_DEMO_AUTH: 'client-credentials' })).toContain(
      "demo.myshopify.com: client-credentials needs the app's credentials (set CONNECTOR_SHOP_DEMO_CLIENT_ID or CONNECTOR_SHOPIFY_CLIENT_ID",
    );
    expect(problemsOf({ ...BASE, ...APP, CONNECTOR_ENCRYPTION_KEYS: undefined })).toContain(
      'CONNECTOR_ENCRYPTION_KEYS is required: demo.myshopify.com (client-credentials) keep their tokens encrypted in PostgreSQL',
    );
    expect(problemsOf({ ...BASE, ...APP, CONNECTOR_ENCRYPTION_KEYS: `${KEY},c2hvcnQ=` })).toContain(
      'CONNECTOR_ENCRYPTION_KEYS: key 2 is not the base64 of 32 bytes',
    );
    expect(problemsOf({ ...BASE, ...APP, CONNECTOR_ENCRYPTION_LOST_KEYS: '0a1b2c3d,my-old-key' })).toContain(
      'CONNECTOR_ENCRYPTION_LOST_KEYS must list key fingerprints (8 hex digits, as the boot\'s refusal names them), got "my-old-key"',
    );
    expect(problemsOf({ ...BASE, ...APP, CONNECTOR_SHOP_DEMO_AUTH: 'oauth' })).toContain(
      'CONNECTOR_SHOP_DEMO_AUTH',
    );
    expect(
      problemsOf({
        ...BASE,
        ...APP,
        CONNECTOR_SHOP_DEMO_AUTH: 'installed',
        CONNECTOR_SHOP_DEMO_ACCESS_TOKEN: 't',
      }),
    ).toContain('CONNECTOR_SHOP_DEMO_ACCESS_TOKEN is set but CONNECTOR_SHOP_DEMO_AUTH is installed');
  });
});
