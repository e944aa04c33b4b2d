// The services `npm start` runs, in start order. To add one (the connector, on PORT, default
// 3000), append an entry: the stack script needs nothing else.
//   name          short log prefix: [name]
//   title         what the ready summary calls it
//   entry         built file to run (npm start builds dist/ first)
//   nodeArgs      Node.js options it runs with (optional)
//   portVariable  environment variable of its port, and defaultPort
//   hostVariable  environment variable of its listening host (the summary's URL uses it)
//   readyPath     path that answers (any HTTP status) once the service listens
//   openapiPath   its OpenAPI document, when it has one, and docsPath, the viewer of it
//   readme        where its curl examples are
//   env           extra environment for it: an object, or a function of (the user's environment,
//                 the URLs of the services already started by name, its own port) for a service
//                 configured from the others; the user's own variables win either way
//   after         services to wait for (ready) before starting it, when they run in this stack
//   tryCommand    a first command to try, for the summary (or null)
//   details(env)  lines for the ready summary: credentials and entry points, never a secret the
//                 user set (only the public development defaults are printed)

const given = (env, name) => env[name] !== undefined && env[name] !== '';

export const services = [
  {
    name: 'catalog',
    title: 'catalog sandbox',
    entry: 'dist/apps/catalog-sandbox/src/main.js',
    portVariable: 'CATALOG_SANDBOX_PORT',
    defaultPort: 4010,
    hostVariable: 'CATALOG_SANDBOX_HOST',
    readyPath: '/openapi.json',
    openapiPath: '/openapi.json',
    docsPath: '/docs',
    readme: 'apps/catalog-sandbox/README.md',
    env: {},
    details: (env) => [
      given(env, 'CATALOG_SANDBOX_SEED')
        ? `accounts and keys from ${env.CATALOG_SANDBOX_SEED}`
        : "account demo: X-API-Key 'demo-api-key-0001' (read only: 'demo-readonly-key-0002')",
      given(env, 'CATALOG_SANDBOX_PORTAL_TOKEN')
        ? 'portal API (/portal/v1): X-Portal-Token is your CATALOG_SANDBOX_PORTAL_TOKEN'
        : "portal API (/portal/v1): X-Portal-Token 'sandbox-portal-token'",
    ],
    tryCommand: (url, env) =>
      given(env, 'CATALOG_SANDBOX_SEED')
        ? null
        : `curl -s ${url}/v1/taxonomies -H 'X-API-Key: demo-api-key-0001'`,
  },
  {
    name: 'shopify',
    title: 'Shopify sandbox',
    entry: 'dist/apps/shopify-sandbox/src/main.js',
    portVariable: 'SHOPIFY_SANDBOX_PORT',
    defaultPort: 4020,
    hostVariable: 'SHOPIFY_SANDBOX_HOST',
    readyPath: '/',
    readme: 'apps/shopify-sandbox/README.md',
    env: {},
    details: (env) => [
      given(env, 'SHOPIFY_SANDBOX_SHOPS')
        ? 'shops and access tokens from SHOPIFY_SANDBOX_SHOPS; Admin GraphQL at /admin/api/2026-07/graphql.json'
        : "shop demo.myshopify.com: X-Shopify-Access-Token 'shpat_sandbox_demo_token', Admin GraphQL at /admin/api/2026-07/graphql.json",
      given(env, 'SHOPIFY_SANDBOX_CONTROL_TOKEN')
        ? 'control API (/sandbox): X-Sandbox-Control-Token is your SHOPIFY_SANDBOX_CONTROL_TOKEN'
        : "control API (/sandbox): X-Sandbox-Control-Token 'sandbox-control-token'",
    ],
    tryCommand: () => null,
  },
  {
    name: 'connector',
    title: 'connector',
    entry: 'dist/apps/connector/src/main.js',
    // As docker-compose.yml runs it: a small young generation, and an old generation grown by
    // small steps, keep the peak RSS down (bench/HISTORY.md, "memory" and "ingest").
    nodeArgs: ['--max-semi-space-size=4', '--heap-growing-percent=20'],
    portVariable: 'PORT',
    defaultPort: 3000,
    hostVariable: 'CONNECTOR_HOST',
    readyPath: '/health/live',
    openapiPath: '/openapi.json',
    docsPath: '/docs',
    readme: 'apps/connector/README.md',
    after: ['catalog', 'shopify'],
    // In the stack: the demo shop of the Shopify sandbox against the catalog sandbox's seeded
    // account (apps/connector/src/platform/local-stack). Alone, the connector reads only the user's settings.
    env: async (userEnv, urls, port) => {
      if (!urls.catalog || !urls.shopify) return {};
      const entry = new URL(
        '../../dist/apps/connector/src/platform/local-stack/local-stack-environment.js',
        import.meta.url,
      );
      const { localStackEnvironment } = await import(entry.href);
      const own = localStackEnvironment({ catalogUrl: urls.catalog, shopifyUrl: urls.shopify, port });
      // The user's token file replaces the public admin token (both set is a configuration error).
      if (given(userEnv, 'CONNECTOR_ADMIN_TOKEN_FILE')) delete own.CONNECTOR_ADMIN_TOKEN;
      return own;
    },
    details: (env) => [
      given(env, 'CONNECTOR_SHOPIFY_CLIENT_ID') || given(env, 'CONNECTOR_SHOPIFY_CLIENT_SECRET')
        ? 'shop demo.myshopify.com: client credentials grant with your CONNECTOR_SHOPIFY_CLIENT_ID and _SECRET'
        : "shop demo.myshopify.com: client credentials grant, client id 'sandbox-app-client-id', secret 'sandbox-app-secret' (GET /admin/shops)",
      'webhooks from the Shopify sandbox arrive at /webhooks/shopify (subscribed at boot)',
      given(env, 'DATABASE_URL')
        ? 'PostgreSQL: DATABASE_URL'
        : 'PostgreSQL: embedded (its data is deleted when the stack stops); queues on it unless REDIS_URL',
      given(env, 'CONNECTOR_ADMIN_TOKEN') || given(env, 'CONNECTOR_ADMIN_TOKEN_FILE')
        ? 'admin API (/admin): Authorization: Bearer <your CONNECTOR_ADMIN_TOKEN>; metrics at /metrics'
        : 'admin API (/admin): Authorization: Bearer connector-admin-token; metrics at /metrics',
      'web view: /admin/ui (sign in with the admin token); the whole story: npm run demo',
    ],
    tryCommand: (url) => `curl -s ${url}/health/ready`,
  },
];
