import { execFile } from 'node:child_process';
import { chmod, chown, mkdtemp, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './local-postgres.js';
import {
  installedDistribution,
  type PostgresDistribution,
  reachableCopy,
  sharedTempBase,
} from './postgres-distribution.js';
import { runTool, startServer, stopServer } from './postgres-process.js';

const run = promisify(execFile);
const isRoot = process.getuid?.() === 0;

/** The identity of the copy's files: a replaced copy has new inodes under the same names. */
async function inodes(dist: PostgresDistribution): Promise<number[]> {
  const files = [dist.dir, dist.postgres, dist.initdb, join(dist.dir, 'lib'), join(dist.dir, 'share')];
  return Promise.all(files.map(async (file) => (await stat(file)).ino));
}

/**
 * Runs a server from `dist` as the `postgres` user (initdb loads plpgsql, the file a removed
 * copy lacked), and a plpgsql block in it; resolves once it stopped.
 */
async function serves(dist: PostgresDistribution, base: string): Promise<void> {
  const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
  const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
  const parent = await mkdtemp(join(base, 'serve-'));
  try {
    await chown(parent, uid, gid);
    const runAs = { uid, gid, cwd: parent };
    const log = () => undefined;
    const data = join(parent, 'data');
    await runTool(dist.initdb, [`--pgdata=${data}`, '--username=postgres', '--auth=trust'], runAs, log);
    const port = await freePort();
    const args = ['-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-k', parent];
    const server = await startServer(dist.postgres, args, runAs, log);
    try {
      const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
      await client.connect();
      try {
        await client.query('DO $$ BEGIN PERFORM 1; END $$');
      } finally {
        await client.end();
      }
    } finally {
      await stopServer(server);
    }
  } finally {
    await rm(parent, { recursive: true, force: true });
  }
}

// As root the embedded PostgreSQL runs from a copy under the temp directory, shared by every
// process on the machine. A copy that has a name is never removed or replaced: a server may be
// running from it (two first starts at once once broke each other: `could not access file
// "plpgsql"`). Each test copies into a directory of its own.
describe.runIf(isRoot)('the reachable copy of PostgreSQL (as root)', () => {
  let installed: PostgresDistribution;
  let base: string;
  beforeAll(async () => {
    installed = await installedDistribution();
    // Where the postgres user can reach the copies and the servers' directories.
    base = await mkdtemp(join(await sharedTempBase(), 'reachable-copy-'));
    await chmod(base, 0o755);
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  // Copies of 60 MB and servers started: slow on a loaded machine.
  const slow = { timeout: 180_000 };

  it(
    'is made once by two first starts at the same moment, and the first one made is kept',
    slow,
    async () => {
      const dir = await mkdtemp(join(base, 'concurrent-'));
      await chmod(dir, 0o755);
      // The first copy to come back is in use at once: its files must stay while the other finishes.
      let firstSeen: Promise<{ dist: PostgresDistribution; inodes: number[] }> | undefined;
      const start = () =>
        reachableCopy(installed, dir).then((dist) => {
          firstSeen ??= inodes(dist).then((ids) => ({ dist, inodes: ids }));
          return dist;
        });
      const [a, b] = await Promise.all([start(), start()]);
      const first = await (firstSeen as NonNullable<typeof firstSeen>);
      expect(await inodes(first.dist)).toEqual(first.inodes);
      expect(a.dir).toBe(b.dir);
      // A later start reuses it as it is.
      expect(await inodes(await reachableCopy(installed, dir))).toEqual(first.inodes);
      await serves(a, base);
    },
  );

  it(
    'leaves an untrusted copy alone (a server may run from it) and makes another under a new name',
    slow,
    async () => {
      const dir = await mkdtemp(join(base, 'untrusted-'));
      await chmod(dir, 0o755);
      const shared = await reachableCopy(installed, dir);
      const before = await inodes(shared);
      // Writable by the group: not a copy to trust any more.
      await chmod(shared.dir, 0o775);
      const fresh = await reachableCopy(installed, dir);
      expect(fresh.dir).not.toBe(shared.dir);
      expect(await inodes(shared)).toEqual(before);
      expect((await stat(shared.dir)).mode & 0o777).toBe(0o775);
      // The new copy is reused from then on; both still serve.
      expect((await reachableCopy(installed, dir)).dir).toBe(fresh.dir);
      await serves(shared, base);
      await serves(fresh, base);
    },
  );
});
