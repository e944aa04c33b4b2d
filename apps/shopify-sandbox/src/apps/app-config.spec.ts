import { describe, expect, it } from 'vitest';
import { type ConfigError, loadConfig } from '#lib/config';
import { loadShopifySandboxConfig } from '../config/shopify-sandbox.config.js';
import { DEFAULT_APP_CLIENT_ID, readApps } from './app-config.js';

function problems(env: Record<string, string>): string {
  try {
    loadShopifySandboxConfig(env);
    return '';
  } catch (error) {
    return (error as ConfigError).problems.join('\n');
  }
}

describe('apps configuration', () => {
  it('defaults to one organization app whose secret is the app secret, Shopify lifetimes, no auto-approve', () => {
    const config = loadShopifySandboxConfig({ SHOPIFY_SANDBOX_APP_SECRET: 'shh' });
    expect(config.appSecret).toBe('shh');
    expect(config.apps).toEqual([
      expect.objectContaining({
        clientId: DEFAULT_APP_CLIENT_ID,
        clientSecret: 'shh',
        distribution: 'organization',
      }),
    ]);
    expect(config.oauth).toEqual({ tokenTtlS: null, autoApprove: false });
    expect(config.webhooks.removeAfterFailures).toBe(1);
  });

  it('reads the apps, the first being the default app whose secret signs webhooks', () => {
    const config = loadShopifySandboxConfig({
      SHOPIFY_SANDBOX_APPS: 'connector:s1:organization, partner-app:s2:public',
      SHOPIFY_SANDBOX_TOKEN_TTL_S: '5',
      SHOPIFY_SANDBOX_OAUTH_AUTO_APPROVE: 'true',
      SHOPIFY_SANDBOX_WEBHOOK_REMOVE_AFTER_FAILURES: '0',
    });
    expect(config.apps.map((a) => [a.clientId, a.clientSecret, a.distribution])).toEqual([
      ['connector', 's1', 'organization'],
      ['partner-app', 's2', 'public'],
    ]);
    expect(config.appSecret).toBe('s1');
    expect(config.oauth).toEqual({ tokenTtlS: 5, autoApprove: true });
    expect(config.webhooks.removeAfterFailures).toBe(0);
  });

  it('refuses a malformed list, a duplicate client id, an unknown distribution and a contradicting secret', () => {
    expect(problems({ SHOPIFY_SANDBOX_APPS: 'a:b' })).toContain('SHOPIFY_SANDBOX_APPS must be');
    expect(problems({ SHOPIFY_SANDBOX_APPS: 'a:b:private' })).toContain('SHOPIFY_SANDBOX_APPS must be');
    expect(problems({ SHOPIFY_SANDBOX_APPS: 'a:b:custom,a:c:public' })).toContain('client id twice');
    expect(problems({ SHOPIFY_SANDBOX_APPS: 'a:b:custom', SHOPIFY_SANDBOX_APP_SECRET: 'x' })).toContain(
      'SHOPIFY_SANDBOX_APP_SECRET differs',
    );
    expect(problems({ SHOPIFY_SANDBOX_TOKEN_TTL_S: '0' })).toContain('SHOPIFY_SANDBOX_TOKEN_TTL_S');
  });

  it('reads through the shared reader', () => {
    const apps = loadConfig({ SHOPIFY_SANDBOX_APPS: 'x:y:custom' }, (read) => readApps(read, 'unused'));
    expect(apps[0]).toMatchObject({ clientId: 'x', distribution: 'custom', redirectUrls: [] });
  });
});
