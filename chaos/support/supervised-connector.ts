import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The connector's process as bench/ runs it (compiled with the chaos run into dist/bench/). */
const CONNECTOR_SCRIPT = fileURLToPath(new URL('../../bench/support/connector-process.js', import.meta.url));
/** How long the supervisor waits before starting a process that died (Docker's restart policy). */
const RESTART_DELAY_MS = 300;

/**
 * The connector under a supervisor, as in production (`restart: unless-stopped`): a process that
 * dies (kill -9, a crash at boot while PostgreSQL is down) is started again by itself, with the
 * same environment and port. Those automatic restarts are counted; nobody restarts it by hand.
 */
export interface SupervisedConnector {
  readonly url: string;
  /** Processes started after the first: the supervisor's, never the chaos run's. */
  readonly automaticRestarts: number;
  /** SIGKILL to the running process; resolves once it is dead (the supervisor starts another). */
  kill9(): Promise<void>;
  /** Resolves once a process listens (the current one, or the next). */
  ready(): Promise<void>;
  /** The last lines the processes wrote. */
  output(): string;
  stop(): Promise<void>;
}

export async function superviseConnector(
  env: Record<string, string | undefined>,
  port: number,
): Promise<SupervisedConnector> {
  const cleanEnv = Object.fromEntries(
    Object.entries({ ...env, PORT: String(port) }).filter((e): e is [string, string] => e[1] !== undefined),
  );
  let child: ChildProcess | null = null;
  let listening: Promise<void> = Promise.resolve();
  let stopping = false;
  let restarts = 0;
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-8_000);
    if (process.env.CHAOS_VERBOSE) process.stderr.write(chunk);
  };
  const start = () => {
    const current = fork(CONNECTOR_SCRIPT, [], { env: cleanEnv, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    child = current;
    current.stdout?.on('data', keep);
    current.stderr?.on('data', keep);
    listening = new Promise<void>((resolve) => {
      current.on('message', (message: { type?: string }) => {
        if (message.type === 'ready') resolve();
      });
      current.once('exit', () => resolve());
    });
    current.once('exit', () => {
      if (stopping) return;
      restarts++;
      setTimeout(() => {
        if (!stopping) start();
      }, RESTART_DELAY_MS);
    });
  };
  start();
  await listening;
  if ((child as ChildProcess | null)?.exitCode !== null)
    throw new Error(`the connector did not start:\n${tail}`);
  return {
    url: `http://127.0.0.1:${port}`,
    get automaticRestarts() {
      return restarts;
    },
    async kill9() {
      const current = child;
      if (!current || current.exitCode !== null || current.signalCode !== null) return;
      const exited = new Promise((resolve) => current.once('exit', resolve));
      current.kill('SIGKILL');
      await exited;
    },
    async ready() {
      for (;;) {
        const current = child;
        await listening;
        if (current === child && current?.exitCode === null && current.signalCode === null) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    output: () => tail,
    async stop() {
      stopping = true;
      const current = child;
      if (!current || current.exitCode !== null || current.signalCode !== null) return;
      const exited = new Promise((resolve) => current.once('exit', resolve));
      current.kill('SIGTERM');
      const timer = setTimeout(() => current.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
