// The connections one process holds to PostgreSQL and Redis, counted from outside it (Linux): its
// sockets (`/proc/<pid>/fd`) matched with the kernel's TCP tables (`/proc/net/tcp*`), and the
// PostgreSQL ones named by pg_stat_activity through their client ports. Other processes on the
// machine (other connectors, other benchmarks) share the connector's application_name, so the
// name alone would count theirs too.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type pg from 'pg';

/** One sample: the process's connections to each server, and the PostgreSQL ones by application_name. */
export interface ConnectionSample {
  postgres: number;
  redis: number;
  byApplication: Record<string, number>;
  /** pg_stat_activity's `state` of the process's PostgreSQL connections (`idle`, `active`, ...). */
  byState: Record<string, number>;
}

/** Remote ports of the process's TCP sockets, by local port (null where /proc cannot be read). */
function tcpPeers(pid: number): Map<number, number> | null {
  let inodes: Set<string>;
  try {
    inodes = new Set(
      readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
        try {
          const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
          const match = /^socket:\[(\d+)\]$/.exec(link);
          return match ? [match[1] as string] : [];
        } catch {
          return [];
        }
      }),
    );
  } catch {
    return null;
  }
  const peers = new Map<number, number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // sl local_address rem_address st ... inode (the 10th field)
      if (fields.length < 10 || !inodes.has(fields[9] as string)) continue;
      const localPort = Number.parseInt((fields[1] as string).split(':')[1] as string, 16);
      const remotePort = Number.parseInt((fields[2] as string).split(':')[1] as string, 16);
      if (fields[3] === '01') peers.set(localPort, remotePort); // ESTABLISHED
    }
  }
  return peers;
}

/**
 * The connections `pid` holds now: to PostgreSQL on `postgresPort` (named through
 * pg_stat_activity by their client ports, read with `db`) and to Redis on `redisPort`.
 */
export async function processConnections(
  pid: number,
  db: pg.Pool,
  postgresPort: number,
  redisPort: number | null,
): Promise<ConnectionSample | null> {
  const peers = tcpPeers(pid);
  if (peers === null) return null;
  const ports = [...peers].filter(([, remote]) => remote === postgresPort).map(([local]) => local);
  const redis = redisPort === null ? 0 : [...peers.values()].filter((remote) => remote === redisPort).length;
  const byApplication: Record<string, number> = {};
  const byState: Record<string, number> = {};
  if (ports.length > 0) {
    const { rows } = await db.query<{ application_name: string; state: string | null }>(
      'SELECT application_name, state FROM pg_stat_activity WHERE client_port = ANY($1::int[])',
      [ports],
    );
    for (const row of rows) {
      byApplication[row.application_name] = (byApplication[row.application_name] ?? 0) + 1;
      const state = row.state ?? 'unknown';
      byState[state] = (byState[state] ?? 0) + 1;
    }
  }
  return { postgres: ports.length, redis, byApplication, byState };
}

/** The port of a `postgres://` or `redis://` URL (its protocol's default when none). */
export function portOf(url: string | undefined, fallback: number): number | null {
  if (!url) return null;
  const port = new URL(url).port;
  return port === '' ? fallback : Number(port);
}

/** Samples a process's connections every `everyMs` and keeps the peaks. */
export class ConnectionPeaks {
  postgres = 0;
  redis = 0;
  byApplication: Record<string, number> = {};
  samples = 0;
  private running = true;
  private readonly loop: Promise<void>;

  constructor(
    private readonly pid: () => number,
    private readonly db: pg.Pool,
    private readonly postgresPort: number,
    private readonly redisPort: number | null,
    everyMs = 1_000,
  ) {
    this.loop = (async () => {
      while (this.running) {
        await this.sample();
        await new Promise((resolve) => setTimeout(resolve, everyMs));
      }
    })();
  }

  private async sample(): Promise<void> {
    const now = await processConnections(this.pid(), this.db, this.postgresPort, this.redisPort).catch(
      () => null,
    );
    if (now === null) return;
    this.samples++;
    this.postgres = Math.max(this.postgres, now.postgres);
    this.redis = Math.max(this.redis, now.redis);
    for (const [name, count] of Object.entries(now.byApplication))
      this.byApplication[name] = Math.max(this.byApplication[name] ?? 0, count);
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }
}
