import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { freePort } from '#lib/local-postgres';

/** A `redis-server` of the run's own, on a random 127.0.0.1 port, without persistence. */
export interface OwnRedis {
  readonly url: string;
  /** kill -9, then a fresh server on the same port: every key is gone (no RDB, no AOF). */
  restartWithoutData(): Promise<void>;
  stop(): Promise<void>;
}

/** The `redis-server` binary on PATH (or /usr/bin), or null when none is installed. */
export function findRedisServer(): string | null {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/usr/local/bin'];
  for (const dir of dirs) {
    const candidate = join(dir, 'redis-server');
    if (dir && existsSync(candidate)) return candidate;
  }
  return null;
}

/** Starts one; resolves once it accepts connections. */
export async function startOwnRedis(binary: string): Promise<OwnRedis> {
  const port = await freePort();
  let child = await launch(binary, port);
  const stopChild = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  };
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  return {
    url: `redis://127.0.0.1:${port}`,
    async restartWithoutData() {
      await stopChild('SIGKILL');
      child = await launch(binary, port);
    },
    async stop() {
      process.removeListener('exit', killOnExit);
      await stopChild('SIGTERM');
    },
  };
}

function launch(binary: string, port: number): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const watch = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('Ready to accept connections')) resolve(child);
    };
    child.stdout?.on('data', watch);
    child.stderr?.on('data', watch);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output.slice(-500)}`)));
  });
}
