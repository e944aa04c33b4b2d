import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** A port nothing listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Ports for the local stack's services, and the environment that moves them there. */
export async function stackPorts(): Promise<{
  catalog: number;
  shopify: number;
  connector: number;
  env: Record<string, string>;
}> {
  const catalog = await freePort();
  const shopify = await freePort();
  const connector = await freePort();
  // Stacks of parallel tests may share DATABASE_URL and REDIS_URL: each connector gets its own
  // schema and queue namespace, so no stack's worker takes another stack's jobs.
  const namespace = `stack_${connector}_${Date.now().toString(36)}`;
  return {
    catalog,
    shopify,
    connector,
    env: {
      CATALOG_SANDBOX_PORT: String(catalog),
      SHOPIFY_SANDBOX_PORT: String(shopify),
      PORT: String(connector),
      CONNECTOR_DATABASE_SCHEMA: namespace,
      CONNECTOR_QUEUE_NAMESPACE: `${namespace}_q`,
    },
  };
}

/** A process started in its own process group, with its output collected. */
export interface RunningProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** stdout and stderr so far, in arrival order. */
  output(): string;
  /** Resolves with the output once `pattern` appears in it; rejects when the process exits first or after `ms`. */
  waitForOutput(pattern: RegExp, ms?: number): Promise<string>;
  /** Resolves once the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Ends the whole process group (TERM, then KILL), for clean-up. */
  killGroup(): Promise<void>;
}

/**
 * Starts `command args` from the repository root in a new process group (like `setsid`), with this
 * process's environment plus `env`; with `inherit: false`, with `env` alone (plus PATH and HOME),
 * as a container gets exactly the environment it is given.
 */
export function startProcess(
  command: string,
  args: string[],
  env: Record<string, string> = {},
  options: { inherit?: boolean } = {},
): RunningProcess {
  const base =
    options.inherit === false ? { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' } : process.env;
  const child = spawn(command, args, {
    cwd: repoRoot,
    env: { ...base, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  let hasExited = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => {
      hasExited = true;
      for (const listener of listeners) listener();
      resolve({ code, signal });
    });
  });
  const pid = child.pid as number;
  return {
    child,
    pid,
    output: () => text,
    exited,
    waitForOutput(pattern, ms = 60_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => done(new Error(`no ${pattern} within ${ms} ms; output:\n${text}`)),
          ms,
        );
        const check = () => {
          if (pattern.test(text)) done(null);
          else if (hasExited) done(new Error(`exited before ${pattern}; output:\n${text}`));
        };
        const done = (error: Error | null) => {
          clearTimeout(timer);
          listeners.delete(check);
          if (error) reject(error);
          else resolve(text);
        };
        listeners.add(check);
        check();
      });
    },
    async killGroup() {
      if (hasExited && !groupAlive(pid)) return;
      signalGroup(pid, 'SIGTERM');
      for (let i = 0; i < 50 && groupAlive(pid); i += 1) await sleep(100);
      signalGroup(pid, 'SIGKILL');
    },
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Whether any process of the process group `pgid` is still alive. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether the process `pid` is still alive (zombies count as gone). Linux: reads /proc. */
export function processAlive(pid: number): boolean {
  const stat = procStat(pid);
  return stat !== null && stat.state !== 'Z';
}

/** Every live descendant of `pid` (children, grandchildren, ...), from /proc. */
export function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = procStat(Number(name));
    if (stat && stat.state !== 'Z') parentOf.set(Number(name), stat.ppid);
  }
  const found: number[] = [];
  let frontier = [pid];
  while (frontier.length > 0) {
    const next = [...parentOf].filter(([, ppid]) => frontier.includes(ppid)).map(([child]) => child);
    found.push(...next);
    frontier = next;
  }
  return found;
}

function procStat(pid: number): { state: string; ppid: number } | null {
  try {
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ")".
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: state as string, ppid: Number(ppid) };
  } catch {
    return null;
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

/** Whether something accepts HTTP on the URL (any status counts). */
export async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

/** The line the stack script prints last once every service answers. */
export const STACK_READY = /^Stop: Ctrl-C$/m;

/** A running local stack (`node scripts/start-local-stack.mjs`) on free ports. */
export interface LocalStack {
  readonly process: RunningProcess;
  readonly catalogUrl: string;
  readonly shopifyUrl: string;
  /** The base URL of a service of scripts/local-stack/services.mjs, by name. */
  url(service: string): string;
  stop(): Promise<void>;
}

/** Starts the whole local stack on free ports and waits for its ready summary. */
export async function startLocalStack(env: Record<string, string> = {}): Promise<LocalStack> {
  const ports = await stackPorts();
  const process = startProcess('node', ['scripts/start-local-stack.mjs'], { ...ports.env, ...env });
  try {
    await process.waitForOutput(STACK_READY, 90_000);
  } catch (error) {
    await process.killGroup();
    throw error;
  }
  const urls: Record<string, string> = {
    catalog: `http://127.0.0.1:${ports.catalog}`,
    shopify: `http://127.0.0.1:${ports.shopify}`,
    connector: `http://127.0.0.1:${ports.connector}`,
  };
  return {
    process,
    catalogUrl: urls.catalog as string,
    shopifyUrl: urls.shopify as string,
    url(service) {
      const url = urls[service];
      if (url === undefined) throw new Error(`No URL known for service ${service}`);
      return url;
    },
    stop: () => process.killGroup(),
  };
}
