import { describe, expect, it } from 'vitest';
import { cliEnvironment } from './cli-environment.js';

describe('cliEnvironment', () => {
  it("is the local stack's environment when no shop is configured, on the stack's ports", () => {
    const env = cliEnvironment({ CATALOG_SANDBOX_PORT: '5010', SHOPIFY_SANDBOX_PORT: '5020', PORT: '5000' });
    expect(env).toMatchObject({
      CONNECTOR_SHOPS: 'demo.myshopify.com',
      CONNECTOR_CATALOG_URL: 'http://127.0.0.1:5010',
      CONNECTOR_SHOPIFY_ADMIN_ORIGIN: 'http://127.0.0.1:5020',
      PORT: '5000',
      CONNECTOR_ADMIN_TOKEN: 'connector-admin-token',
    });
    expect(cliEnvironment({}).CONNECTOR_CATALOG_URL).toBe('http://127.0.0.1:4010');
  });

  it("keeps the user's own variables over the stack's, and a token file over the public token", () => {
    const env = cliEnvironment({
      CONNECTOR_ADMIN_TOKEN_FILE: '/run/secrets/admin',
      CONNECTOR_SYNC_STATUSES: 'ACTIVE',
    });
    expect(env.CONNECTOR_ADMIN_TOKEN).toBeUndefined();
    expect(env.CONNECTOR_ADMIN_TOKEN_FILE).toBe('/run/secrets/admin');
    expect(env.CONNECTOR_SYNC_STATUSES).toBe('ACTIVE');
  });

  it("is the user's environment, untouched, once CONNECTOR_SHOPS is set", () => {
    const own = {
      CONNECTOR_SHOPS: 'acme.myshopify.com',
      CONNECTOR_CATALOG_URL: 'https://catalog.example.com',
    };
    expect(cliEnvironment(own)).toBe(own);
    // A connector of shops that install themselves is configured too, with no shop listed.
    const installs = {
      CONNECTOR_SHOPIFY_INSTALLS: 'open',
      CONNECTOR_CATALOG_URL: 'https://catalog.example.com',
    };
    expect(cliEnvironment(installs)).toBe(installs);
  });
});
