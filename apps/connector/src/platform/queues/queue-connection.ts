import { type ConnectionOptions, createPostgresBackend, setDefaultBackendFactory } from 'bullmq';
import type { ConnectorConfig } from '../config/connector.config.js';
import { hardenPostgresBackend } from './postgres-backend-hardening.js';
import { sharePostgresPool } from './shared-queue-pool.js';

/** Which backend the queues use, and what BullMQ connects with. */
export interface QueueConnection {
  backend: 'redis' | 'postgres';
  connection: ConnectionOptions;
  /** Redis key prefix (the PostgreSQL backend namespaces by schema instead). */
  prefix: string | undefined;
}

/**
 * Redis when `REDIS_URL` is set, otherwise BullMQ's PostgreSQL backend on `DATABASE_URL` in
 * its own schema, every queue and worker on one pool of `CONNECTOR_QUEUE_POOL_SIZE` connections.
 * BullMQ's backend factory is process-wide, so it is chosen here, before any queue or worker
 * exists; one process runs one backend.
 */
export function queueConnection(config: ConnectorConfig): QueueConnection {
  const { redisUrl, namespace } = config.queue;
  if (redisUrl !== null) {
    setDefaultBackendFactory();
    const url = new URL(redisUrl);
    return {
      backend: 'redis',
      prefix: namespace,
      connection: {
        host: url.hostname,
        port: Number(url.port || 6379),
        db: Number(url.pathname.slice(1) || 0),
        username: url.username ? decodeURIComponent(url.username) : undefined,
        password: url.password ? decodeURIComponent(url.password) : undefined,
        tls: url.protocol === 'rediss:' ? {} : undefined,
        maxRetriesPerRequest: null,
      },
    };
  }
  if (config.database.url === null) throw new Error('The PostgreSQL queue backend needs database.url');
  // One query pool for every queue and worker (`sharePostgresPool`): at most `poolSize`
  // connections, plus each worker's LISTEN connection.
  setDefaultBackendFactory(hardenPostgresBackend(sharePostgresPool(createPostgresBackend), 500));
  return {
    backend: 'postgres',
    prefix: undefined,
    connection: {
      connectionString: config.database.url,
      schema: namespace,
      max: config.queue.poolSize,
      migrate: true,
      // Bounds every connect, the LISTEN client's included: without it, a connect attempted
      // while the database is unreachable may never settle, and the worker waits on it forever.
      connectionTimeoutMillis: config.database.timeoutMs,
      keepAlive: true,
      application_name: 'catalog-connector-queue',
    } as unknown as ConnectionOptions,
  };
}
