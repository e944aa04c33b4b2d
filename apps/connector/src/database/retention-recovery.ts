import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { JobName, QueueName } from '../queues/queue-names.js';
import { QueueRecoveryRegistry } from '../queues/queue-recovery-registry.js';
import { Retention } from './retention.js';

/** Retention's part of repairing a queue backend that lost its data: its scheduler. */
@Injectable()
export class RetentionRecovery implements OnModuleInit {
  constructor(
    private readonly registry: QueueRecoveryRegistry,
    private readonly retention: Retention,
    @InjectQueue(QueueName.RETENTION) private readonly queue: Queue,
  ) {}

  onModuleInit(): void {
    this.registry.scheduler({
      queue: this.queue,
      id: JobName.RETENTION,
      ensure: () => this.retention.onApplicationBootstrap(),
    });
  }
}
