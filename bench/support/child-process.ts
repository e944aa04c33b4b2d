import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { freePort } from '#lib/local-postgres';

/** A service run as its own Node.js process (the connector, the naive peer), as it runs in production. */
export interface ServiceProcess {
  readonly pid: number;
  /** The base URL the service reported once listening. */
  readonly url: string;
  /** Sends a message over IPC and resolves with the service's answer (matched by `id`). */
  request<T>(message: Record<string, unknown>): Promise<T>;
  /** Peak resident set size so far, in bytes (the kernel's `VmHWM`), or null when unknown. */
  peakRss(): number | null;
  /** Resident set size now, in bytes (`VmRSS`), or null when unknown. */
  rss(): number | null;
  /** CPU time used so far (user + system), in ms, or null when unknown. */
  cpuMs(): number | null;
  /** The last lines the process wrote (for errors). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Why a child process: ack latencies and memory are the service's own, not shared with the load
 * generator and the sandboxes (which run in the bench process). `script` is a built module that
 * sends `{ type: 'ready', url }` over IPC once it listens.
 */
export async function startService(
  script: string,
  env: Record<string, string | undefined>,
  nodeArgs: string[] = [],
): Promise<ServiceProcess> {
  const child: ChildProcess = fork(script, [], {
    env: Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined)),
    execArgv: nodeArgs,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-8_000);
    if (process.env.BENCH_VERBOSE) process.stderr.write(chunk);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const pending = new Map<number, (value: unknown) => void>();
  let nextId = 1;
  const url = await new Promise<string>((resolve, reject) => {
    child.on('message', (message: { type?: string; url?: string; id?: number; result?: unknown }) => {
      if (message.type === 'ready' && message.url) resolve(message.url);
      if (message.id !== undefined) pending.get(message.id)?.(message.result);
    });
    void exited.then((code) => reject(new Error(`${script} exited (${code}) before it listened:\n${tail}`)));
  });
  const pid = child.pid as number;
  return {
    pid,
    url,
    request<T>(message: Record<string, unknown>) {
      const id = nextId++;
      return new Promise<T>((resolve) => {
        pending.set(id, (value) => {
          pending.delete(id);
          resolve(value as T);
        });
        child.send({ ...message, id });
      });
    },
    peakRss: () => procStatus(pid, 'VmHWM'),
    rss: () => procStatus(pid, 'VmRSS'),
    cpuMs: () => procCpuMs(pid),
    output: () => tail,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A size field of `/proc/<pid>/status`, in bytes (Linux); null elsewhere or once the process is gone. */
function procStatus(pid: number, field: 'VmHWM' | 'VmRSS'): number | null {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** utime + stime of `/proc/<pid>/stat`, in ms (Linux, 100 ticks per second); null elsewhere. */
function procCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * Starts a service on a port found free a moment before (it must know the port first, for its
 * public URL): another process may take the port in between, and the service then exits with
 * EADDRINUSE before it listens. Then another port is picked, up to three times.
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return await start(port);
    } catch (error) {
      if (attempt >= 3 || !/EADDRINUSE/.test(String(error))) throw error;
    }
  }
}
