import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { services } from '../../scripts/local-stack/services.mjs';
import { caddySites, routeFor } from './support/caddyfile.js';
import { composedService, materialize, parseEnvFile, rootedEnvironment } from './support/compose-service.js';
import { runCli } from './support/connector-world.js';
import { repoRoot } from './support/stack-process.js';

// No Docker engine runs where this is developed: docker-compose.yml is checked with Debian's
// docker-compose (1.29), which parses and validates it without one. `.ci/run` installs it; outside
// CI the test is skipped, saying so, when the tool is missing.
const available = spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status === 0;
const ci = inject('ci');

const PRODUCTION_ENV = 'deploy/production.env.example';
const OVERRIDE = 'docker-compose.override.example.yml';
const DEMO_MAPPING = readFileSync(join(repoRoot, 'apps/connector/mappings/demo.yaml'), 'utf8');
/** The connector's routes that Shopify or a merchant's browser calls, and a load balancer's checks. */
const PUBLIC_PATHS = [
  '/webhooks/shopify',
  '/auth/shopify',
  '/auth/shopify/callback',
  '/health/live',
  '/health/ready',
];
/** Routes for operators only (and anything else): never forwarded from the internet. */
const PRIVATE_PATHS = [
  '/',
  '/health',
  '/metrics',
  '/docs',
  '/openapi.json',
  '/admin/shops',
  '/admin/ui',
  '/admin/ui/login',
  '/admin/failures',
  '/webhooks/shopify/extra',
  '/auth/shopify/../../admin/shops',
];

interface ComposeService {
  command?: string[];
  environment: Record<string, string>;
  ports?: Array<
    string | { published: number | string; target: number | string; host_ip?: string; protocol?: string }
  >;
  profiles?: string[];
  depends_on?: Record<string, { condition: string }>;
  secrets?: Array<{ source: string; target?: string }>;
  volumes?: string[];
  healthcheck?: { test: string[] };
}

interface ComposeConfig {
  services: Record<string, ComposeService>;
  secrets?: Record<string, { file: string }>;
}

/** `docker-compose -f docker-compose.yml [-f <files>] [--profile <profiles>] config`, parsed. */
function composeConfig(
  options: { files?: string[]; profiles?: string[]; env?: Record<string, string> } = {},
): ComposeConfig {
  const args = [
    ...['docker-compose.yml', ...(options.files ?? [])].flatMap((file) => ['-f', file]),
    ...(options.profiles ?? []).flatMap((profile) => ['--profile', profile]),
    'config',
  ];
  const output = execFileSync('docker-compose', args, {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, COMPOSE_PROJECT_NAME: 'catalog-connector-check', ...options.env },
  });
  return parse(output) as ComposeConfig;
}

/** [host ip, published, target] of a port entry, long form or short "ip:host:container/proto". */
function portOf(entry: NonNullable<ComposeService['ports']>[number]): [string, number, number] {
  if (typeof entry !== 'string') return [entry.host_ip ?? '', Number(entry.published), Number(entry.target)];
  const parts = entry.replace(/\/\w+$/, '').split(':');
  const [target, published] = [parts.pop(), parts.pop()];
  return [parts.join(':'), Number(published), Number(target)];
}

/**
 * Whether the connector accepts the environment compose gives it, with its secret files and mounts
 * laid out under a temporary root (`contents` for secrets whose compose file is not in the
 * repository): its command line loads it exactly as the connector does, then fails only to reach a
 * connector (port 9 is refused at once).
 */
async function expectAccepted(
  variables: Record<string, string>,
  given: { contents?: Record<string, string>; files?: Record<string, string> } = {},
): Promise<void> {
  const service = composedService('connector', variables);
  const root = mkdtempSync(join(tmpdir(), 'compose-root-'));
  materialize(service, root, { ...given, copyMounts: true });
  const { environment, unmounted } = rootedEnvironment(service, root);
  expect(unmounted, 'paths the environment names that no secret or mount provides').toEqual([]);
  const run = await runCli(['--url', 'http://127.0.0.1:9', 'failures'], environment);
  expect(run.stderr).not.toContain('configuration:');
  expect(run.stderr).toContain('cannot reach the connector at http://127.0.0.1:9');
}

/** The services `docker compose up` runs with these profiles. */
function running(all: Record<string, ComposeService>, profiles: string[]): string[] {
  return Object.entries(all)
    .filter(([, service]) => !service.profiles?.length || service.profiles.some((p) => profiles.includes(p)))
    .map(([name]) => name)
    .sort();
}

/** A `*_FILE` value per secret the environment names: `{ catalog_api_key: 'CONNECTOR_CATALOG_API_KEY_FILE' }`. */
function secretVariables(environment: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(environment)
      .filter(([key, value]) => key.endsWith('_FILE') && value.startsWith('/run/secrets/'))
      .map(([key, value]) => [value.slice('/run/secrets/'.length), key]),
  );
}

describe('docker-compose.yml', () => {
  it.runIf(!available && !ci)(
    'is not checked: docker-compose is not installed (apt-get install docker-compose)',
    () => {
      expect(available).toBe(false);
    },
  );

  it.runIf(available || ci)(
    'runs the connector on PostgreSQL and Redis containers, its public and private ports published on the loopback',
    async () => {
      expect(available, 'docker-compose must be installed under CI (.ci/run installs it)').toBe(true);
      const all = composeConfig().services;
      expect(running(all, [])).toEqual(['connector', 'postgres', 'redis']);
      const connector = all.connector as ComposeService;
      expect(connector.command).toEqual([
        'node',
        '--heap-growing-percent=20',
        'dist/apps/connector/src/main.js',
      ]);
      expect(connector.environment).toMatchObject({
        CONNECTOR_HOST: '0.0.0.0',
        PORT: '3000',
        CONNECTOR_ADMIN_PORT: '3001',
        DATABASE_URL: 'postgres://connector:connector@postgres:5432/connector',
        REDIS_URL: 'redis://redis:6379',
      });
      expect(connector.depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      });
      expect(connector.ports?.map(portOf)).toEqual([
        ['127.0.0.1', 3000, 3000],
        ['127.0.0.1', 3001, 3001],
      ]);
      // PostgreSQL and Redis are reached over the compose network only
      expect(all.postgres?.ports).toBeUndefined();
      expect(all.redis?.ports).toBeUndefined();
      // what this test reads of the file for the stack tests is what compose reads
      expect(composedService('connector').environment).toEqual(connector.environment);
      // the connector's settings, as the file gives them (sandbox secrets and mappings mounted), are
      // a configuration the connector accepts
      await expectAccepted({});
    },
  );

  it.runIf(available || ci)(
    'gives the connector its secrets as files under /run/secrets and its mappings under /etc/catalog-connector',
    () => {
      const config = composeConfig({ env: { CONNECTOR_ENV_FILE: PRODUCTION_ENV } });
      const connector = config.services.connector as ComposeService;
      const declared = Object.keys(config.secrets ?? {}).sort();
      expect(declared).toEqual([
        'catalog_api_key',
        'connector_admin_token',
        'connector_encryption_keys',
        'shopify_client_secret',
      ]);
      expect(connector.secrets?.map((s) => s.source).sort()).toEqual(declared);
      // each secret the production environment names by a *_FILE variable is mounted, and each
      // mounted secret is named: nothing is missing at boot, nothing is mounted for nothing
      expect(Object.keys(secretVariables(connector.environment)).sort()).toEqual(declared);
      expect(connector.volumes).toContainEqual(expect.stringMatching(/:\/etc\/catalog-connector:ro$/));
      for (const [key, value] of Object.entries(connector.environment).filter(([k]) =>
        k.endsWith('_MAPPING_FILE'),
      )) {
        expect(value, key).toMatch(/^\/etc\/catalog-connector\//);
      }
      // as written, the secrets are the sandboxes' public values, present in the repository
      for (const { file } of Object.values(config.secrets ?? {})) {
        expect(relative(repoRoot, file)).toMatch(/^deploy\/sandbox-secrets\//);
        expect(existsSync(file), file).toBe(true);
      }
    },
  );

  it.runIf(available || ci)(
    'runs every service of npm start with the "sandboxes" profile, each on its port of the loopback',
    () => {
      const all = composeConfig({ profiles: ['sandboxes'] }).services;
      expect(running(all, ['sandboxes'])).toEqual([
        'catalog-sandbox',
        'connector',
        'postgres',
        'redis',
        'shopify-sandbox',
      ]);
      const byEntry = new Map(Object.values(all).map((service) => [service.command?.at(-1), service]));
      for (const service of services) {
        const composed = byEntry.get(service.entry);
        expect(
          composed,
          `${service.entry} (npm start's ${service.name}) is not in docker-compose.yml`,
        ).toBeDefined();
        expect(
          composed?.environment[service.portVariable],
          `${service.portVariable} of ${service.name}`,
        ).toBe(String(service.defaultPort));
        expect(
          composed?.environment[service.hostVariable],
          `${service.hostVariable} of ${service.name}`,
        ).toBe('0.0.0.0');
        expect(composed?.ports?.map(portOf)).toContainEqual([
          '127.0.0.1',
          service.defaultPort,
          service.defaultPort,
        ]);
      }
      // the connector reaches the sandboxes by their service names
      expect(all.connector?.environment).toMatchObject({
        CONNECTOR_CATALOG_URL: 'http://catalog-sandbox:4010',
        CONNECTOR_SHOPIFY_ADMIN_ORIGIN: 'http://shopify-sandbox:4020',
      });
      for (const service of Object.values(all).filter((s) => s.command?.[0] === 'node')) {
        // each command of ours runs a file the build makes from a source that exists
        const entry = service.command?.at(-1) as string;
        expect(entry).toMatch(/^dist\/.+\.js$/);
        expect(existsSync(join(repoRoot, entry.replace(/^dist\//, '').replace(/\.js$/, '.ts'))), entry).toBe(
          true,
        );
      }
      // the image's health check asks the connector's port: each sandbox asks its own
      for (const name of ['catalog-sandbox', 'shopify-sandbox']) {
        const port = String(all[name]?.ports?.map(portOf)[0]?.[2]);
        expect(all[name]?.healthcheck?.test.join(' '), name).toContain(`http://127.0.0.1:${port}/`);
      }
    },
  );

  it.runIf(available || ci)(
    'takes a real store and catalog from CONNECTOR_ENV_FILE (deploy/production.env.example)',
    async () => {
      const all = composeConfig({
        env: { CONNECTOR_ENV_FILE: PRODUCTION_ENV, POSTGRES_PASSWORD: 'long-random-password' },
      }).services;
      const environment = all.connector?.environment as Record<string, string>;
      expect(environment).toMatchObject({
        ...parseEnvFile(readFileSync(join(repoRoot, PRODUCTION_ENV), 'utf8')),
        DATABASE_URL: 'postgres://connector:long-random-password@postgres:5432/connector',
      });
      expect(environment.CONNECTOR_SHOPIFY_ADMIN_ORIGIN).toBeUndefined();
      // no secret in the environment file: every one is a file
      expect(
        Object.keys(environment).filter((k) => /SECRET|_KEY|TOKEN/.test(k) && !k.endsWith('_FILE')),
      ).toEqual([]);
      expect(all.postgres?.environment.POSTGRES_PASSWORD).toBe('long-random-password');
      await expectAccepted(
        { CONNECTOR_ENV_FILE: PRODUCTION_ENV },
        {
          contents: {
            connector_admin_token: 'example-admin-token-0001\n',
            connector_encryption_keys: `${Buffer.alloc(32, 7).toString('base64')}\n`,
            shopify_client_secret: 'example-client-secret\n',
            catalog_api_key: 'example-key\n',
          },
          // the operator's mapping (deploy/config/acme-eu.yaml), here the reference one
          files: {
            '/etc/catalog-connector/acme-eu.yaml': DEMO_MAPPING.replace(
              /^shop: .*$/m,
              'shop: acme-eu.myshopify.com',
            ),
          },
        },
      );
    },
  );

  it.runIf(available || ci)(
    "mounts a real store's files with docker-compose.override.example.yml, the environment unchanged",
    () => {
      const variables = { CONNECTOR_ENV_FILE: PRODUCTION_ENV };
      const plain = composeConfig({ env: variables });
      const real = composeConfig({ files: [OVERRIDE], profiles: ['proxy'], env: variables });
      expect(real.services.connector?.environment).toEqual(plain.services.connector?.environment);
      expect(Object.keys(real.secrets ?? {}).sort()).toEqual(Object.keys(plain.secrets ?? {}).sort());
      for (const { file } of Object.values(real.secrets ?? {})) {
        expect(relative(repoRoot, file)).toMatch(/^deploy\/secrets\/\w+$/);
      }
      expect(real.services.connector?.volumes).toEqual([
        `${join(repoRoot, 'deploy/config')}:/etc/catalog-connector:ro`,
      ]);
      expect(real.services.caddy?.environment.CONNECTOR_DOMAIN).toBe('connector.example.com');
      // a real deployment's files stay out of git and out of the image
      const ignored = (file: string) =>
        spawnSync('git', ['check-ignore', '-q', file], { cwd: repoRoot }).status === 0;
      for (const file of [
        'deploy/secrets/catalog_api_key',
        'deploy/production.env',
        'docker-compose.override.yml',
        '.env',
      ]) {
        expect(ignored(file), `.gitignore: ${file}`).toBe(true);
      }
      const dockerignore = readFileSync(join(repoRoot, '.dockerignore'), 'utf8').split('\n');
      for (const entry of ['deploy/secrets', 'deploy/config', 'deploy/production.env', '.env']) {
        expect(dockerignore, `.dockerignore: ${entry}`).toContain(entry);
      }
    },
  );

  it.runIf(available || ci)(
    'publishes a range of host ports for two replicas on one host (docs/production.md, "Several replicas")',
    () => {
      const all = composeConfig({
        env: { CONNECTOR_PUBLISHED_PORT: '3000-3001', CONNECTOR_ADMIN_PUBLISHED_PORT: '3100-3101' },
      }).services;
      expect(all.connector?.ports).toEqual(['127.0.0.1:3000-3001:3000/tcp', '127.0.0.1:3100-3101:3001/tcp']);
    },
  );

  it.runIf(available || ci)(
    'puts Caddy in front with the profile "proxy", forwarding only the public routes to the public port',
    () => {
      const all = composeConfig({ profiles: ['proxy'] }).services;
      expect(running(all, ['proxy'])).toEqual(['caddy', 'connector', 'postgres', 'redis']);
      const caddy = all.caddy as ComposeService;
      expect(caddy.ports?.map(portOf)).toEqual([
        ['', 80, 80],
        ['', 443, 443],
        ['', 443, 443],
      ]);
      expect(caddy.volumes).toContain(`${join(repoRoot, 'deploy/Caddyfile')}:/etc/caddy/Caddyfile:ro`);
      expect(caddy.environment.CONNECTOR_DOMAIN).toBe('localhost');

      const sites = caddySites(readFileSync(join(repoRoot, 'deploy/Caddyfile'), 'utf8'));
      expect(sites.map((s) => s.address)).toEqual(['{$CONNECTOR_DOMAIN}']);
      const site = sites[0] as (typeof sites)[number];
      // nothing outside the handle blocks: no second proxy, no redirect, no file server
      expect(site.otherDirectives).toEqual([]);
      const forwarded = (path: string) =>
        routeFor(site, path)?.lines.some((line) => line.startsWith('reverse_proxy')) ?? false;
      expect([...PUBLIC_PATHS, ...PRIVATE_PATHS].filter(forwarded)).toEqual(PUBLIC_PATHS);
      expect(routeFor(site, '/admin/ui')?.lines).toEqual(['respond 404']);
      // to every replica of the connector service, on its public port (never CONNECTOR_ADMIN_PORT)
      const proxy = routeFor(site, '/webhooks/shopify')?.lines ?? [];
      expect(proxy).toContain('name connector');
      expect(proxy).toContain(`port ${all.connector?.environment.PORT}`);
    },
  );
});
