import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { services } from '../../scripts/local-stack/services.mjs';
import { repoRoot } from './support/stack-process.js';

// No Docker engine runs where this is developed: docker-compose.yml is checked with Debian's
// docker-compose (1.29), which parses and validates it without one. `.ci/run` installs it; outside
// CI the test is skipped, saying so, when the tool is missing.
const available = spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status === 0;
const ci = inject('ci');

interface ComposeService {
  command?: string[];
  environment: Record<string, string>;
  ports: Array<string | { published: number | string; target: number | string }>;
}

/** [published, target] of a port entry, in compose's long form or its short "ip:host:container/proto" form. */
function portPair(entry: ComposeService['ports'][number]): [number, number] {
  if (typeof entry !== 'string') return [Number(entry.published), Number(entry.target)];
  const [published, target] = entry
    .replace(/\/\w+$/, '')
    .split(':')
    .slice(-2);
  return [Number(published), Number(target)];
}

describe('docker-compose.yml', () => {
  it.runIf(!available && !ci)(
    'is not checked: docker-compose is not installed (apt-get install docker-compose)',
    () => {
      expect(available).toBe(false);
    },
  );

  it.runIf(available || ci)('is valid for docker-compose config, and runs every service of npm start', () => {
    expect(available, 'docker-compose must be installed under CI (.ci/run installs it)').toBe(true);
    const output = execFileSync('docker-compose', ['-f', 'docker-compose.yml', 'config'], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, COMPOSE_PROJECT_NAME: 'catalog-connector-check' },
    });
    const compose = parse(output) as { services: Record<string, ComposeService> };
    const byEntry = new Map(
      Object.values(compose.services).map((service) => [service.command?.at(-1), service]),
    );
    for (const service of services) {
      const composed = byEntry.get(service.entry);
      expect(
        composed,
        `${service.entry} (npm start's ${service.name}) is not in docker-compose.yml`,
      ).toBeDefined();
      const port = composed?.environment[service.portVariable];
      expect(port, `${service.portVariable} of ${service.name}`).toBe(String(service.defaultPort));
      expect(composed?.ports.map(portPair)).toEqual([[service.defaultPort, service.defaultPort]]);
    }
    for (const service of Object.values(compose.services).filter((s) => s.command !== undefined)) {
      // each command of ours runs a file the build makes from a source that exists
      const entry = service.command?.at(-1) as string;
      expect(entry).toMatch(/^dist\/.+\.js$/);
      expect(existsSync(join(repoRoot, entry.replace(/^dist\//, '').replace(/\.js$/, '.ts'))), entry).toBe(
        true,
      );
    }
  });
});
