import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { services } from '../../scripts/local-stack/services.mjs';
import { runCli } from './support/connector-world.js';
import { repoRoot } from './support/stack-process.js';

// No Docker engine runs where this is developed: docker-compose.yml is checked with Debian's
// docker-compose (1.29), which parses and validates it without one. `.ci/run` installs it; outside
// CI the test is skipped, saying so, when the tool is missing.
const available = spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status === 0;
const ci = inject('ci');

interface ComposeService {
  command?: string[];
  environment: Record<string, string>;
  ports?: Array<string | { published: number | string; target: number | string; host_ip?: string }>;
  profiles?: string[];
  depends_on?: Record<string, { condition: string }>;
}

/** `docker-compose [--profile ...] config` with `env` for the file's variables, parsed. */
function composeConfig(
  args: string[] = [],
  env: Record<string, string> = {},
): Record<string, ComposeService> {
  const output = execFileSync('docker-compose', ['-f', 'docker-compose.yml', ...args, 'config'], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, COMPOSE_PROJECT_NAME: 'catalog-connector-check', ...env },
  });
  return (parse(output) as { services: Record<string, ComposeService> }).services;
}

/** [host ip, published, target] of a port entry, long form or short "ip:host:container/proto". */
function portOf(entry: NonNullable<ComposeService['ports']>[number]): [string, number, number] {
  if (typeof entry !== 'string') return [entry.host_ip ?? '', Number(entry.published), Number(entry.target)];
  const parts = entry.replace(/\/\w+$/, '').split(':');
  const [target, published] = [parts.pop(), parts.pop()];
  return [parts.join(':'), Number(published), Number(target)];
}

/**
 * Whether the connector accepts this environment as its configuration: its command line loads it
 * exactly as the connector does, then fails only to reach a connector (port 9 is refused at once).
 */
async function expectAccepted(environment: Record<string, string>): Promise<void> {
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

describe('docker-compose.yml', () => {
  it.runIf(!available && !ci)(
    'is not checked: docker-compose is not installed (apt-get install docker-compose)',
    () => {
      expect(available).toBe(false);
    },
  );

  it.runIf(available || ci)(
    'runs the connector on PostgreSQL and Redis containers, only its port published, on the loopback',
    async () => {
      expect(available, 'docker-compose must be installed under CI (.ci/run installs it)').toBe(true);
      const all = composeConfig();
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
        DATABASE_URL: 'postgres://connector:connector@postgres:5432/connector',
        REDIS_URL: 'redis://redis:6379',
      });
      expect(connector.depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      });
      expect(connector.ports?.map(portOf)).toEqual([['127.0.0.1', 3000, 3000]]);
      // PostgreSQL and Redis are reached over the compose network only
      expect(all.postgres?.ports).toBeUndefined();
      expect(all.redis?.ports).toBeUndefined();
      // the connector's settings, as the file gives them, are a configuration the connector accepts
      await expectAccepted(connector.environment);
    },
  );

  it.runIf(available || ci)(
    'runs every service of npm start with the "sandboxes" profile, each on its port of the loopback',
    () => {
      const all = composeConfig(['--profile', 'sandboxes']);
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
        expect(composed?.ports?.map(portOf)).toEqual([
          ['127.0.0.1', service.defaultPort, service.defaultPort],
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
    },
  );

  it.runIf(available || ci)(
    'takes a real store and catalog from CONNECTOR_ENV_FILE (docs/production.md)',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'compose-env-'));
      const file = join(dir, 'connector.env');
      writeFileSync(
        file,
        [
          'CONNECTOR_SHOPS=acme.myshopify.com',
          'CONNECTOR_SHOP_ACME_ACCESS_TOKEN=shpat_example',
          'CONNECTOR_WEBHOOK_SECRETS=example-app-secret',
          'CONNECTOR_CATALOG_URL=https://catalog.example.com',
          'CONNECTOR_CATALOG_API_KEY=example-key',
          'CONNECTOR_PUBLIC_URL=https://connector.example.com',
          'CONNECTOR_ADMIN_TOKEN=example-admin-token-0001',
          '',
        ].join('\n'),
      );
      const all = composeConfig([], { CONNECTOR_ENV_FILE: file, POSTGRES_PASSWORD: 'long-random-password' });
      const environment = all.connector?.environment as Record<string, string>;
      expect(environment).toMatchObject({
        CONNECTOR_SHOPS: 'acme.myshopify.com',
        CONNECTOR_CATALOG_URL: 'https://catalog.example.com',
        DATABASE_URL: 'postgres://connector:long-random-password@postgres:5432/connector',
      });
      expect(environment.CONNECTOR_SHOPIFY_ADMIN_ORIGIN).toBeUndefined();
      expect(all.postgres?.environment.POSTGRES_PASSWORD).toBe('long-random-password');
      await expectAccepted(environment);
    },
  );
});
