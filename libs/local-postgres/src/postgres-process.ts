import { type ChildProcess, spawn } from 'node:child_process';

/** The OS identity a PostgreSQL process runs as (`postgres` when we are root), and where. */
export interface RunAs {
  uid?: number;
  gid?: number;
  /** Working directory: one the process can enter (not the caller's, which may be closed to it). */
  cwd: string;
}

const ENV = { ...process.env, LC_ALL: 'C', LC_MESSAGES: 'C' };

/** Runs a PostgreSQL tool to its end; rejects with its output when it fails. */
export function runTool(
  file: string,
  args: string[],
  runAs: RunAs,
  log: (line: string) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...runAs, env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      log(chunk.toString('utf8'));
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('error', (error) => reject(new Error(`Cannot run ${file}: ${error.message}`)));
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${file} failed (${signal ?? `exit ${code}`}): ${output.trim()}`));
    });
  });
}

/** Starts the server and resolves once it accepts connections; rejects with its log if it stops. */
export function startServer(
  file: string,
  args: string[],
  runAs: RunAs,
  log: (line: string) => void,
): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...runAs, env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let ready = false;
    const watch = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      log(text);
      if (ready) return;
      output += text;
      if (output.includes('database system is ready to accept connections')) {
        ready = true;
        resolve(child);
      }
    };
    child.stdout.on('data', watch);
    child.stderr.on('data', watch);
    child.once('error', (error) => reject(new Error(`Cannot run ${file}: ${error.message}`)));
    child.once('exit', (code, signal) => {
      if (!ready)
        reject(new Error(`PostgreSQL stopped at start (${signal ?? `exit ${code}`}): ${output.trim()}`));
    });
  });
}

/** Stops the server (fast shutdown), killing it if it lingers. */
export function stopServer(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGINT');
  });
}
