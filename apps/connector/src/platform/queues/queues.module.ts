import { BullModule } from '@nestjs/bullmq';
import { type DynamicModule, Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { ConnectorConfig } from '../config/connector.config.js';
import { FailuresModule } from '../failures/failures.module.js';
import { JobClassesCheck } from './job-classes-check.service.js';
import { JobSchedulers, jobSchedulersProvider } from './job-schedulers.js';
import { queueConnection } from './queue-connection.js';
import { QueueErrorLog } from './queue-error-log.service.js';
import { ALL_QUEUES } from './queue-names.js';
import { QueuePoolCount } from './queue-pool-count.js';
import { QueueRecoveryRegistry } from './queue-recovery-registry.service.js';
import { QueueStateWatch } from './queue-state-watch.service.js';
import { RegistrationsCheck } from './registrations-check.service.js';
import { configureWorkers } from './worker-options.js';

/** Every queue, on Redis or PostgreSQL (`queueConnection`), injectable with `@InjectQueue`. */
@Global()
@Module({})
export class QueuesModule {}

export function queuesModule(config: ConnectorConfig): DynamicModule {
  const chosen = queueConnection(config);
  configureWorkers(config.queue);
  return {
    module: QueuesModule,
    imports: [
      DiscoveryModule,
      // For `RegistrationsCheck`: the replay handlers are checked against the flow table.
      FailuresModule,
      BullModule.forRoot({ connection: chosen.connection, prefix: chosen.prefix }),
      BullModule.registerQueue(...ALL_QUEUES.map((name) => ({ name }))),
    ],
    providers: [
      JobClassesCheck,
      QueueErrorLog,
      jobSchedulersProvider,
      QueueRecoveryRegistry,
      QueueStateWatch,
      RegistrationsCheck,
      { provide: QueuePoolCount, useValue: new QueuePoolCount(chosen) },
    ],
    exports: [BullModule, JobSchedulers, QueueRecoveryRegistry, QueueStateWatch, QueuePoolCount],
  };
}
