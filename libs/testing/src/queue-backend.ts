import { randomUUID } from 'node:crypto';
import {
  createPostgresBackend,
  Queue,
  type QueueOptions,
  Worker,
  type WorkerOptions,
  withBackend,
} from 'bullmq';

/** Which BullMQ backend the tests run on, decided once in the global setup. */
export type QueueBackendChoice = { kind: 'redis'; url: string } | { kind: 'postgres'; url: string };

/**
 * Queue and Worker constructors bound to the chosen backend, plus a connection object and a
 * namespace unique to the calling test (a Redis key prefix or a PostgreSQL schema), so tests
 * never share queue state and never need to truncate anything.
 */
export function queueTestKit(choice: QueueBackendChoice) {
  const namespace = `t_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  if (choice.kind === 'redis') {
    const url = new URL(choice.url);
    const connection = {
      host: url.hostname,
      port: Number(url.port || 6379),
      db: Number(url.pathname.slice(1) || 0),
      password: url.password || undefined,
      maxRetriesPerRequest: null,
    };
    return {
      namespace,
      queue: <T>(name: string, opts: Partial<QueueOptions> = {}) =>
        new Queue<T>(name, { connection, prefix: namespace, ...opts }),
      worker: <T, R>(name: string, fn: (data: T) => Promise<R>, opts: Partial<WorkerOptions> = {}) =>
        new Worker<T, R>(name, (job) => fn(job.data), { connection, prefix: namespace, ...opts }),
    };
  }
  const pg = withBackend(createPostgresBackend);
  const connection = { connectionString: choice.url, schema: namespace, migrate: true };
  return {
    namespace,
    queue: <T>(name: string) => new pg.Queue<T>(name, { connection }),
    worker: <T, R>(name: string, fn: (data: T) => Promise<R>) =>
      new pg.Worker<T, R>(name, (job) => fn(job.data), { connection }),
  };
}
