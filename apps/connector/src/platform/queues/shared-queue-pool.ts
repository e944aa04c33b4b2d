import type { EventEmitter } from 'node:events';
import type { BackendFactory, IQueueBackend } from 'bullmq';

/** What this file reads of a `pg.Pool`: its counts, and `end`. */
interface PgPoolLike extends EventEmitter {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
  end(): Promise<void>;
}

/** The parts of BullMQ's `PostgresConnection` (bullmq 6.7) this file changes. */
interface PostgresConnectionInternals {
  pool?: PgPoolLike;
  ownsPool?: boolean;
  /** The backend's own LISTEN connection (a worker's), once made; a standalone `pg.Client`. */
  listenClient?: unknown;
  close(): Promise<void>;
  /** Runs the migrations (or checks the schema) on one client of the pool; `waitUntilReady` memoizes it. */
  bootstrap(): Promise<void>;
  waitUntilReady(): Promise<void>;
  emit(event: string): boolean;
}

/** One pool shared by every backend on the same connection settings, and who holds it. */
interface SharedPool {
  pool: PgPoolLike;
  backends: Set<PostgresConnectionInternals>;
  /** The first backend's connection: the one that runs the migrations for all. */
  first: PostgresConnectionInternals;
}

/** The shared pools of this process, by connection settings (several connectors may run in one process: tests). */
const POOLS = new Map<string, SharedPool>();

/** The queue backend's connections to PostgreSQL in this process, for one connection setting. */
export interface QueueConnectionCount {
  /** Connections of the shared query pool (at most its `max`: `CONNECTOR_QUEUE_POOL_SIZE`). */
  pool: number;
  /** Queries waiting for one of them. */
  waiting: number;
  /** Workers' LISTEN connections (one per worker, each job class has one). */
  listeners: number;
}

/**
 * Why: BullMQ's PostgreSQL backend gives every queue and every worker a `pg.Pool` of its own (10
 * connections each, pg's default) plus, for a worker, a LISTEN connection: 12 queues and 12
 * workers could open about 250 connections, and a page that reads every queue at once (the
 * queues board) ran the database out of them ("too many clients"). Here every backend made with
 * the same connection settings runs its queries on one pool, sized by the settings' `max`
 * (`CONNECTOR_QUEUE_POOL_SIZE`); each worker keeps its own LISTEN connection (a `LISTEN` is bound
 * to one connection, and BullMQ rebuilds it when it drops). So the queues use at most `max` plus
 * one connection per worker. The backend only ever runs single statements on its pool (no
 * client is held across calls, but by the migrations, run once for all here), so a small pool
 * queues queries and never deadlocks. The pool ends when the last backend using it closes. Not for a backend given a `pg.Pool` of the
 * caller's (left alone).
 */
export function sharePostgresPool<B extends IQueueBackend, C>(
  factory: BackendFactory<B, C>,
): BackendFactory<B, C> {
  return (name, opts, options) => {
    const backend = factory(name, opts, options);
    const connection = (backend as unknown as { connection?: PostgresConnectionInternals }).connection;
    const own = connection?.pool;
    if (connection === undefined || own === undefined || connection.ownsPool !== true) return backend;
    const key = settingsKey(opts.connection);
    let shared = POOLS.get(key);
    if (shared === undefined) {
      shared = { pool: own, backends: new Set(), first: connection };
      POOLS.set(key, shared);
    } else {
      // The backend's own pool was never used (no query runs before the factory returns).
      connection.pool = shared.pool;
      void own.end().catch(() => undefined);
      // The schema is the pool's: migrated (or checked) once, by the first backend, not by
      // each of the 24, which held the pool's connections while they queued for the
      // migrations' lock at boot. Ready once the first one is (a failed try is tried again).
      const first = shared.first;
      connection.bootstrap = async () => {
        await first.waitUntilReady();
        setTimeout(() => connection.emit('ready'), 0);
      };
    }
    connection.ownsPool = false;
    shared.backends.add(connection);
    const held = shared;
    const close = connection.close.bind(connection);
    connection.close = async () => {
      await close();
      if (!held.backends.delete(connection) || held.backends.size > 0) return;
      if (POOLS.get(key) === held) POOLS.delete(key);
      await held.pool.end().catch(() => undefined);
    };
    return backend;
  };
}

/** The queue backend's PostgreSQL connections in this process on these connection settings. */
export function queueConnectionCount(connection: unknown): QueueConnectionCount {
  const shared = POOLS.get(settingsKey(connection));
  if (shared === undefined) return { pool: 0, waiting: 0, listeners: 0 };
  let listeners = 0;
  for (const backend of shared.backends) if (backend.listenClient !== undefined) listeners += 1;
  return { pool: shared.pool.totalCount, waiting: shared.pool.waitingCount, listeners };
}

/** The connection settings as a key: equal settings, one pool. */
function settingsKey(connection: unknown): string {
  if (connection === null || typeof connection !== 'object') return String(connection);
  const entries = Object.entries(connection as Record<string, unknown>).sort(([a], [b]) =>
    a.localeCompare(b),
  );
  return JSON.stringify(entries);
}
