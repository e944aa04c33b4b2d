import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '#lib/config';
import { loadConnectorConfig } from './connector.config.js';

const BASE = {
  CONNECTOR_SHOPS: 'demo.myshopify.com',
  CONNECTOR_SHOP_DEMO_ACCESS_TOKEN: 'shpat_secret_token',
  CONNECTOR_WEBHOOK_SECRETS: 'hook-secret',
  CONNECTOR_CATALOG_URL: 'http://127.0.0.1:4010/',
  CONNECTOR_CATALOG_API_KEY: 'catalog-secret-key',
};

function problemsOf(attempt: () => unknown): string {
  try {
    attempt();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems.join('\n');
  }
  throw new Error('expected a ConfigError');
}

describe('loadConnectorConfig', () => {
  it('builds one typed object with the documented defaults', () => {
    const config = loadConnectorConfig(BASE);
    expect(config.http).toEqual({
      port: 3000,
      host: '127.0.0.1',
      webhookBodyLimitBytes: 4 * 1024 * 1024,
      publicUrl: null,
      adminListener: null,
      trustedNetworks: [
        '127.0.0.0/8',
        '::1/128',
        '10.0.0.0/8',
        '172.16.0.0/12',
        '192.168.0.0/16',
        'fc00::/7',
      ],
    });
    expect(config.admin).toMatchObject({ authFailureLimit: 10, authFailureWindowMs: 60_000 });
    expect(config.database).toMatchObject({ url: null, schema: 'connector', poolSize: 10 });
    expect(config.queue).toEqual({
      redisUrl: null,
      namespace: 'connector_queue',
      checkIntervalMs: 15_000,
      lockMs: 30_000,
      poolSize: 10,
    });
    // Burst 2: one slot of tolerance lets a late grant catch up (the catalog client's default).
    expect(config.catalog).toMatchObject({ ratePerSecond: 4, burst: 2 });
    expect(config.sync).toMatchObject({
      debounceMs: 1_000,
      concurrency: 4,
      attempts: 8,
      mappingRecheckMs: 30_000,
    });
    const [shop] = config.shops;
    expect(shop).toMatchObject({
      domain: 'demo.myshopify.com',
      key: 'DEMO',
      apiVersion: '2026-07',
      mappingFile: null,
      catalog: { baseUrl: 'http://127.0.0.1:4010' },
    });
    expect(shop?.auth).toMatchObject({ kind: 'static', app: null });
    expect(shop?.auth.kind === 'static' && shop.auth.accessToken.reveal()).toBe('shpat_secret_token');
    expect(shop?.webhookSecrets.map((s) => s.reveal())).toEqual(['hook-secret']);
  });

  it('never prints a secret, however the config is logged', () => {
    const config = loadConnectorConfig(BASE);
    for (const text of [
      JSON.stringify(config),
      inspect(config, { depth: 10 }),
      String(config.shops[0]?.auth.kind === 'static' && config.shops[0].auth.accessToken),
    ]) {
      for (const secret of ['shpat_secret_token', 'hook-secret', 'catalog-secret-key']) {
        expect(text).not.toContain(secret);
      }
    }
  });

  it('reads several shops, per-shop overrides and rotation secrets', () => {
    const config = loadConnectorConfig({
      ...BASE,
      CONNECTOR_SHOPS: 'demo.myshopify.com, acme-eu.myshopify.com',
      CONNECTOR_SHOP_ACME_EU_ACCESS_TOKEN: 'shpat_acme',
      CONNECTOR_SHOP_ACME_EU_WEBHOOK_SECRETS: 'new-secret, old-secret',
      CONNECTOR_SHOP_ACME_EU_CATALOG_API_KEY: 'acme-key',
      CONNECTOR_SHOP_ACME_EU_API_VERSION: '2026-04',
      CONNECTOR_SHOP_ACME_EU_MAPPING_FILE: 'mappings/acme.yaml',
    });
    const acme = config.shops[1];
    expect(acme).toMatchObject({ domain: 'acme-eu.myshopify.com', key: 'ACME_EU', apiVersion: '2026-04' });
    expect(acme?.webhookSecrets.map((s) => s.reveal())).toEqual(['new-secret', 'old-secret']);
    expect(acme?.catalog.apiKey.reveal()).toBe('acme-key');
    expect(acme?.mappingFile).toBe('mappings/acme.yaml');
  });

  it('pins a shop mode per configured shop, and starts installed shops in CONNECTOR_NEW_SHOP_MODE (shadow)', () => {
    const config = loadConnectorConfig({
      ...BASE,
      CONNECTOR_SHOPS: 'demo.myshopify.com, acme-eu.myshopify.com',
      CONNECTOR_SHOP_ACME_EU_ACCESS_TOKEN: 'shpat_acme',
      CONNECTOR_SHOP_ACME_EU_MODE: 'shadow',
    });
    expect(config.shops[0]?.modePin).toBeUndefined();
    expect(config.shops[1]?.modePin).toBe('shadow');
    expect(config.installs.newShopMode).toBe('shadow');
    expect(loadConnectorConfig({ ...BASE, CONNECTOR_NEW_SHOP_MODE: 'live' }).installs.newShopMode).toBe(
      'live',
    );
    const problems = problemsOf(() =>
      loadConnectorConfig({ ...BASE, CONNECTOR_SHOP_DEMO_MODE: 'dry', CONNECTOR_NEW_SHOP_MODE: 'test' }),
    );
    expect(problems).toContain('CONNECTOR_SHOP_DEMO_MODE must be one of live, shadow, got "dry"');
    expect(problems).toContain('CONNECTOR_NEW_SHOP_MODE must be one of live, shadow, got "test"');
  });

  it('reads secrets from *_FILE, dropping the trailing newline', () => {
    const files: Record<string, string> = {
      '/run/secrets/token': 'shpat_from_file\n',
      '/run/secrets/hooks': 'a\nb\n',
    };
    const config = loadConnectorConfig(
      {
        ...BASE,
        CONNECTOR_SHOP_DEMO_ACCESS_TOKEN: undefined,
        CONNECTOR_SHOP_DEMO_ACCESS_TOKEN_FILE: '/run/secrets/token',
        CONNECTOR_WEBHOOK_SECRETS: undefined,
        CONNECTOR_WEBHOOK_SECRETS_FILE: '/run/secrets/hooks',
      },
      (path) => {
        const text = files[path];
        if (text === undefined) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
        return text;
      },
    );
    const auth = config.shops[0]?.auth;
    expect(auth?.kind === 'static' && auth.accessToken.reveal()).toBe('shpat_from_file');
    expect(config.shops[0]?.webhookSecrets.map((s) => s.reveal())).toEqual(['a', 'b']);
  });

  it('reads the overview backlog threshold (5 minutes by default) and refuses one that is not a positive integer', () => {
    expect(loadConnectorConfig(BASE).operations.backlogFailingMs).toBe(300_000);
    expect(
      loadConnectorConfig({ ...BASE, CONNECTOR_OVERVIEW_BACKLOG_FAILING_MS: '1000' }).operations
        .backlogFailingMs,
    ).toBe(1_000);
    for (const bad of ['0', 'soon']) {
      expect(
        problemsOf(() => loadConnectorConfig({ ...BASE, CONNECTOR_OVERVIEW_BACKLOG_FAILING_MS: bad })),
      ).toContain('CONNECTOR_OVERVIEW_BACKLOG_FAILING_MS');
    }
  });

  it('reads the mapping-gap share that degrades a shop (10 % by default), a number from 0 to 1', () => {
    expect(loadConnectorConfig(BASE).operations.mappingGapDegradedShare).toBe(0.1);
    expect(
      loadConnectorConfig({ ...BASE, CONNECTOR_MAPPING_GAP_DEGRADED_SHARE: '0' }).operations
        .mappingGapDegradedShare,
    ).toBe(0);
    for (const bad of ['1.5', '-0.1', 'some']) {
      expect(
        problemsOf(() => loadConnectorConfig({ ...BASE, CONNECTOR_MAPPING_GAP_DEGRADED_SHARE: bad })),
      ).toContain('CONNECTOR_MAPPING_GAP_DEGRADED_SHARE');
    }
  });

  it('names every bad variable at once, and never a secret value', () => {
    const problems = problemsOf(() =>
      loadConnectorConfig(
        {
          CONNECTOR_SHOPS: 'demo.myshopify.com,other.myshopify.com',
          CONNECTOR_SHOP_DEMO_ACCESS_TOKEN: 'shpat_visible?',
          CONNECTOR_SHOP_DEMO_ACCESS_TOKEN_FILE: '/nope',
          CONNECTOR_WEBHOOK_SECRETS_FILE: '/missing/file',
          PORT: 'eighty',
          DATABASE_URL: 'not a url',
          CONNECTOR_SYNC_CONCURRENCY: '20',
          CONNECTOR_DATABASE_POOL_SIZE: '10',
          CONNECTOR_SHOP_OTHER_API_VERSION: '2019-01',
        },
        () => {
          throw Object.assign(new Error('missing'), { code: 'ENOENT' });
        },
      ),
    );
    for (const expected of [
      'CONNECTOR_SHOP_DEMO_ACCESS_TOKEN and CONNECTOR_SHOP_DEMO_ACCESS_TOKEN_FILE are both set',
      'CONNECTOR_WEBHOOK_SECRETS_FILE names a file that cannot be read (ENOENT)',
      'other.myshopify.com: the Admin API access token is missing',
      'other.myshopify.com: the catalog URL is missing',
      'PORT must be an integer',
      'DATABASE_URL must be a URL',
      'CONNECTOR_DATABASE_POOL_SIZE (10) must exceed CONNECTOR_SYNC_CONCURRENCY (20)',
      'CONNECTOR_SHOP_OTHER_API_VERSION must be one of',
    ]) {
      expect(problems).toContain(expected);
    }
    expect(problems).not.toContain('shpat_visible?');
  });

  it('refuses shops that are not myshopify.com domains, or that would share variables', () => {
    expect(problemsOf(() => loadConnectorConfig({ ...BASE, CONNECTOR_SHOPS: 'example.com' }))).toContain(
      'CONNECTOR_SHOPS must list <name>.myshopify.com domains',
    );
    expect(
      problemsOf(() =>
        loadConnectorConfig({ ...BASE, CONNECTOR_SHOPS: 'a-b.myshopify.com,a_b.myshopify.com' }),
      ),
    ).toMatch(/CONNECTOR_SHOPS must list|would share the variables/);
    // CONNECTOR_SHOPS is optional now, but a connector must have shops to serve or take installs.
    expect(problemsOf(() => loadConnectorConfig({ ...BASE, CONNECTOR_SHOPS: undefined }))).toContain(
      'No shop to serve: list them in CONNECTOR_SHOPS, or let shops install the app (CONNECTOR_SHOPIFY_INSTALLS=open)',
    );
  });

  it('follows the catalog budget with the sync concurrency, and the pool with the workers', () => {
    expect(loadConnectorConfig(BASE).sync.concurrency).toBe(4);
    const fast = loadConnectorConfig({ ...BASE, CONNECTOR_CATALOG_RATE_PER_SECOND: '100' });
    expect(fast.sync.concurrency).toBe(15);
    expect(fast.database.poolSize).toBe(15 + 2 + 4);
    const set = loadConnectorConfig({
      ...BASE,
      CONNECTOR_CATALOG_RATE_PER_SECOND: '100',
      CONNECTOR_SYNC_CONCURRENCY: '6',
    });
    expect(set.sync.concurrency).toBe(6);
    expect(set.database.poolSize).toBe(12);
  });

  it('takes installs when CONNECTOR_SHOPIFY_INSTALLS=open, naming what they need', () => {
    const open = {
      ...BASE,
      CONNECTOR_SHOPS: undefined,
      CONNECTOR_WEBHOOK_SECRETS: undefined,
      CONNECTOR_SHOPIFY_INSTALLS: 'open',
    };
    const problems = problemsOf(() => loadConnectorConfig(open));
    expect(problems).toContain(
      'CONNECTOR_SHOPIFY_INSTALLS=open needs CONNECTOR_SHOPIFY_CLIENT_ID and CONNECTOR_SHOPIFY_CLIENT_SECRET, CONNECTOR_PUBLIC_URL',
    );
    expect(problems).toContain('CONNECTOR_ENCRYPTION_KEYS is required: shops that install the app');
    const config = loadConnectorConfig({
      ...open,
      CONNECTOR_SHOPIFY_CLIENT_ID: 'client-id',
      CONNECTOR_SHOPIFY_CLIENT_SECRET: 'client-secret',
      CONNECTOR_PUBLIC_URL: 'https://connector.example.com',
      CONNECTOR_ENCRYPTION_KEYS: Buffer.alloc(32, 7).toString('base64'),
      CONNECTOR_DEFAULT_MAPPING_FILE: '/etc/connector/mapping.yaml',
    });
    expect(config.shops).toEqual([]);
    expect(config.installs).toMatchObject({
      open: true,
      app: { clientId: 'client-id' },
      defaultMappingFile: '/etc/connector/mapping.yaml',
      refreshMs: 10_000,
    });
    expect(config.installs.webhookSecrets.map((secret) => secret.reveal())).toEqual(['client-secret']);
    expect(JSON.stringify(config.installs)).not.toContain('client-secret');
  });

  it('reads the admin token (or its file), refuses a short one, and never prints it', () => {
    expect(loadConnectorConfig(BASE).admin.token).toBeNull();
    const config = loadConnectorConfig(
      { ...BASE, CONNECTOR_ADMIN_TOKEN_FILE: '/run/secrets/admin' },
      () => 'admin-token-from-file-0001\n',
    );
    expect(config.admin.token?.reveal()).toBe('admin-token-from-file-0001');
    expect(JSON.stringify(config)).not.toContain('admin-token-from-file');
    expect(problemsOf(() => loadConnectorConfig({ ...BASE, CONNECTOR_ADMIN_TOKEN: 'short' }))).toContain(
      'CONNECTOR_ADMIN_TOKEN must be at least 16 characters long',
    );
  });

  it('reads the private listener, the trusted networks and the failed-authentication limit', () => {
    const config = loadConnectorConfig({
      ...BASE,
      CONNECTOR_ADMIN_PORT: '3001',
      CONNECTOR_ADMIN_TRUSTED_NETWORKS: '203.0.113.0/24, 2001:db8::/32,198.51.100.7',
      CONNECTOR_AUTH_FAILURE_LIMIT: '5',
      CONNECTOR_AUTH_FAILURE_WINDOW_MS: '30000',
    });
    expect(config.http.adminListener).toEqual({ port: 3001, host: '127.0.0.1' });
    expect(config.http.trustedNetworks.slice(-3)).toEqual([
      '203.0.113.0/24',
      '2001:db8::/32',
      '198.51.100.7',
    ]);
    expect(config.admin).toMatchObject({ authFailureLimit: 5, authFailureWindowMs: 30_000 });
    const problems = problemsOf(() =>
      loadConnectorConfig({
        ...BASE,
        PORT: '3000',
        CONNECTOR_ADMIN_PORT: '3000',
        CONNECTOR_ADMIN_TRUSTED_NETWORKS: '10.0.0.0/33,office',
        CONNECTOR_AUTH_FAILURE_LIMIT: '0',
      }),
    );
    expect(problems).toContain('CONNECTOR_ADMIN_PORT must differ from PORT (3000)');
    expect(problems).toContain(
      'CONNECTOR_ADMIN_TRUSTED_NETWORKS: "10.0.0.0/33" is not an address or a network',
    );
    expect(problems).toContain('CONNECTOR_ADMIN_TRUSTED_NETWORKS: "office" is not an address or a network');
    expect(problems).toContain('CONNECTOR_AUTH_FAILURE_LIMIT must be at least 1, got 0');
    expect(problemsOf(() => loadConnectorConfig({ ...BASE, CONNECTOR_ADMIN_HOST: '0.0.0.0' }))).toContain(
      'CONNECTOR_ADMIN_HOST is set but CONNECTOR_ADMIN_PORT is not',
    );
  });
});
