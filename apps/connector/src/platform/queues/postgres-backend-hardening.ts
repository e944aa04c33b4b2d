import type { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BackendFactory, IQueueBackend } from 'bullmq';

/** Methods that must fail (or finish) at once: shutting down is never slowed. */
const IMMEDIATE = new Set<string | symbol>(['close', 'disconnect']);

/** Pools whose clients already get an `error` listener. */
const HEARD_POOLS = new WeakSet<EventEmitter>();

/** A BullMQ object that memoizes its readiness promise (backend and connection both do). */
interface MemoizedReadiness {
  readyPromise?: Promise<void>;
  waitUntilReady(): Promise<void>;
}

/**
 * Wraps BullMQ's PostgreSQL backend factory against three failure modes seen when the database
 * goes away (bullmq 6.7; reproduced by test/storage-outage.e2e-spec.ts):
 *
 * 1. Errors of a lost connection ("Client has encountered a connection error and is not
 *    queryable") are not recognised as connection errors by the worker's main loop, which asks
 *    again at once, forever, with no timer in between: the event loop starves (HTTP requests
 *    hang, the dead client is never evicted) and the error log grows until memory runs out.
 *    Every failed backend call here waits `delayMs` on a real timer before failing.
 * 2. A pooled client that is checked out when its connection drops emits `error` with no
 *    listener, which crashes the process. Every client of the backend's pool gets a listener
 *    (the error still fails the query that was using the client); once per pool, as the
 *    backends share one (`sharePostgresPool`).
 * 3. Readiness is memoized even when it failed: a connection first used while the database is
 *    down keeps failing with that first error after it is back, and its worker never takes
 *    another job. A failed readiness is forgotten here, so the next call tries again.
 */
export function hardenPostgresBackend<B extends IQueueBackend, C>(
  factory: BackendFactory<B, C>,
  delayMs: number,
): BackendFactory<B, C> {
  return (name, opts, options) => {
    const backend = factory(name, opts, options);
    const connection = (backend as unknown as { connection?: MemoizedReadiness & { pool?: EventEmitter } })
      .connection;
    const pool = connection?.pool;
    // Once per pool: backends share one (`sharePostgresPool`).
    if (pool !== undefined && !HEARD_POOLS.has(pool)) {
      HEARD_POOLS.add(pool);
      pool.on('connect', (client: EventEmitter) => client.on('error', () => undefined));
    }
    if (connection) forgetFailedReadiness(connection);
    forgetFailedReadiness(backend as unknown as MemoizedReadiness);
    return new Proxy(backend, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function' || IMMEDIATE.has(property)) return value;
        return (...args: unknown[]) => {
          const result: unknown = value.apply(target, args);
          if (!(result instanceof Promise)) return result;
          return result.catch(async (error: unknown) => {
            await sleep(delayMs);
            throw error;
          });
        };
      },
    });
  };
}

function forgetFailedReadiness(owner: MemoizedReadiness): void {
  if (typeof owner.waitUntilReady !== 'function') return;
  const original = owner.waitUntilReady.bind(owner);
  owner.waitUntilReady = () => {
    const ready = original();
    ready.catch(() => {
      owner.readyPromise = undefined;
    });
    return ready;
  };
}
