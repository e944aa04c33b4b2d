import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, posix, resolve } from 'node:path';
import { parse } from 'yaml';
import { repoRoot } from './stack-process.js';

/** Where compose mounts a service's secrets when the file gives no target. */
const SECRETS_DIR = '/run/secrets';

/** One file-based secret of a service: the host file compose reads, and its path in the container. */
export interface ComposedSecret {
  name: string;
  source: string;
  target: string;
}

/** One bind mount of a service: a host path (absolute) and its path in the container. */
export interface ComposedMount {
  source: string;
  target: string;
  readOnly: boolean;
}

/** What compose gives one service's container: its command, environment, secrets and bind mounts. */
export interface ComposedService {
  command: string[];
  environment: Record<string, string>;
  secrets: ComposedSecret[];
  mounts: ComposedMount[];
}

interface ComposeFile {
  services: Record<
    string,
    {
      command?: string[];
      env_file?: string | string[];
      environment?: Record<string, string | number | null>;
      secrets?: Array<string | { source: string; target?: string }>;
      volumes?: string[];
    }
  >;
  secrets?: Record<string, { file?: string }>;
}

/**
 * Why: the compose-environment stack test must start the connector with what docker-compose.yml
 * gives the container, read from the file itself rather than restated. This reads one service the
 * way compose does for the parts the file uses: `${NAME}` / `${NAME:-default}` from `variables`,
 * `env_file` (KEY=VALUE lines) under `environment`, file-based secrets (short or long syntax), and
 * bind mounts (`./host:/container[:ro]`; named volumes are not files, so they are left out).
 */
export function composedService(
  name: string,
  variables: Record<string, string> = {},
  file = 'docker-compose.yml',
): ComposedService {
  const path = resolve(repoRoot, file);
  const base = dirname(path);
  const compose = interpolated(parse(readFileSync(path, 'utf8')), variables) as ComposeFile;
  const service = compose.services[name];
  if (service === undefined) throw new Error(`${file} has no service ${name}`);
  const envFiles = service.env_file === undefined ? [] : [service.env_file].flat();
  const environment: Record<string, string> = {};
  for (const envFile of envFiles)
    Object.assign(environment, parseEnvFile(readFileSync(resolve(base, envFile), 'utf8')));
  for (const [key, value] of Object.entries(service.environment ?? {})) {
    if (value !== null) environment[key] = String(value);
  }
  const secrets = (service.secrets ?? []).map((entry): ComposedSecret => {
    const secret = typeof entry === 'string' ? { source: entry } : entry;
    const source = compose.secrets?.[secret.source]?.file;
    if (source === undefined) throw new Error(`${file}: secret ${secret.source} has no file`);
    const target = secret.target ?? secret.source;
    return {
      name: secret.source,
      source: resolve(base, source),
      target: target.startsWith('/') ? target : posix.join(SECRETS_DIR, target),
    };
  });
  const mounts = (service.volumes ?? []).flatMap((entry): ComposedMount[] => {
    const [source = '', target = '', mode = 'rw'] = entry.split(':');
    if (!source.startsWith('.') && !isAbsolute(source)) return [];
    return [{ source: resolve(base, source), target, readOnly: mode.split(',').includes('ro') }];
  });
  return { command: service.command ?? [], environment, secrets, mounts };
}

/** KEY=VALUE lines, as compose reads an `env_file`: blank lines and `#` comments skipped. */
export function parseEnvFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const equals = trimmed.indexOf('=');
    if (equals <= 0) throw new Error(`not KEY=VALUE: ${trimmed}`);
    values[trimmed.slice(0, equals)] = trimmed.slice(equals + 1);
  }
  return values;
}

/**
 * The service's environment with every path inside one of its mounts (secrets and bind mounts)
 * moved under `root`, and the absolute paths no mount provides: a container started with them
 * would miss those files.
 */
export function rootedEnvironment(
  service: ComposedService,
  root: string,
): { environment: Record<string, string>; unmounted: string[] } {
  const targets = [...service.secrets.map((s) => s.target), ...service.mounts.map((m) => m.target)];
  const environment: Record<string, string> = {};
  const unmounted: string[] = [];
  for (const [key, value] of Object.entries(service.environment)) {
    const inside = targets.some((target) => value === target || value.startsWith(`${target}/`));
    if (inside) environment[key] = join(root, value);
    else {
      environment[key] = value;
      if (value.startsWith('/')) unmounted.push(`${key}=${value}`);
    }
  }
  return { environment, unmounted };
}

/**
 * Lays the service's files out under `root` as the container would see them: each secret with
 * `contents[name]` (else its compose source file, which must exist), each bind mount's directory
 * (copied from its source when `copyMounts`), then `files` (container path → text).
 */
export function materialize(
  service: ComposedService,
  root: string,
  options: { contents?: Record<string, string>; copyMounts?: boolean; files?: Record<string, string> } = {},
): void {
  for (const secret of service.secrets) {
    const text = options.contents?.[secret.name] ?? readFileSync(secret.source, 'utf8');
    write(join(root, secret.target), text);
  }
  for (const mount of service.mounts) {
    const target = join(root, mount.target);
    mkdirSync(target, { recursive: true });
    if (options.copyMounts && existsSync(mount.source)) cpSync(mount.source, target, { recursive: true });
  }
  for (const [path, text] of Object.entries(options.files ?? {})) write(join(root, path), text);
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** Every string of a parsed compose file with `${NAME}`, `${NAME:-default}` and `$$` replaced. */
function interpolated(value: unknown, variables: Record<string, string>): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\$|\$\{(\w+)(?::?-([^}]*))?\}/g, (match, name: string | undefined, fallback) => {
      if (name === undefined) return '$';
      const given = variables[name];
      const colon = match.includes(':-');
      if (given !== undefined && (given !== '' || !colon)) return given;
      return fallback ?? '';
    });
  }
  if (Array.isArray(value)) return value.map((item) => interpolated(item, variables));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolated(v, variables)]));
  }
  return value;
}
