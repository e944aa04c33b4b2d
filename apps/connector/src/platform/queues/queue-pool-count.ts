import type { QueueConnection } from './queue-connection.js';
import { type QueueConnectionCount, queueConnectionCount } from './shared-queue-pool.js';

/**
 * Why: the queues' PostgreSQL connections in this process, for `/metrics` (the operator sizes
 * `max_connections` from it: docs/production.md, "Database connections"). Null on Redis.
 */
export class QueuePoolCount {
  constructor(private readonly chosen: QueueConnection) {}

  count(): QueueConnectionCount | null {
    return this.chosen.backend === 'postgres' ? queueConnectionCount(this.chosen.connection) : null;
  }
}
