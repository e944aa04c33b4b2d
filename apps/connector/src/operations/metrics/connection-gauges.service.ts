import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CatalogClients } from '../../clients/catalog/catalog-clients.service.js';
import { QueuePoolCount } from '../../platform/queues/queue-pool-count.js';
import { ConnectorMetrics } from './connector-metrics.service.js';

/** The part of a `pg.Pool` read here. */
interface PoolCounts {
  totalCount: number;
}

/**
 * Why: how many PostgreSQL connections this process holds, by pool, so the operator sees what
 * `max_connections` must allow (docs/production.md, "Database connections"): the tables'
 * pool (`CONNECTOR_DATABASE_POOL_SIZE` at most), the queues' shared pool
 * (`CONNECTOR_QUEUE_POOL_SIZE`) and the workers' LISTEN connections (PostgreSQL queues only),
 * the catalog rate limiter's (2 at most, without Redis).
 */
@Injectable()
export class ConnectionGauges implements OnModuleInit {
  constructor(
    private readonly metrics: ConnectorMetrics,
    private readonly dataSource: DataSource,
    private readonly queues: QueuePoolCount,
    private readonly catalogs: CatalogClients,
  ) {}

  onModuleInit(): void {
    this.metrics.gauge(
      'connector_database_connections',
      'PostgreSQL connections this process holds open now, by pool: tables, queues (the shared pool of the queues), queue_listeners (one per worker), rate_limiter.',
      ['pool'],
      async () => {
        const tables = (this.dataSource.driver as unknown as { master?: PoolCounts }).master?.totalCount ?? 0;
        const queues = this.queues.count();
        return [
          { labels: { pool: 'tables' }, value: tables },
          { labels: { pool: 'queues' }, value: queues?.pool ?? 0 },
          { labels: { pool: 'queue_listeners' }, value: queues?.listeners ?? 0 },
          { labels: { pool: 'rate_limiter' }, value: this.catalogs.limiterConnections() },
        ];
      },
    );
  }
}
