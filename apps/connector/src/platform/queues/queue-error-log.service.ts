import { getQueueToken, WorkerHost } from '@nestjs/bullmq';
import {
  type BeforeApplicationShutdown,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DiscoveryService, ModuleRef } from '@nestjs/core';
import type { Queue } from 'bullmq';
import { Clock } from '#lib/clock';
import { ALL_QUEUES } from './queue-names.js';

const QUIET_MS = 10_000;

/**
 * Listens to every queue's and worker's `error` events. Without a listener BullMQ prints each
 * error object whole, as fast as its retry loop spins while the backend is unreachable; here
 * each source logs one line, then at most one line (with a count) per 10 seconds.
 */
@Injectable()
export class QueueErrorLog implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Queues');
  private readonly last = new Map<string, { at: number; suppressed: number }>();
  private stopping = false;

  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly discovery: DiscoveryService,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    for (const name of ALL_QUEUES) {
      const queue = this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
      queue.on('error', (error) => this.log(`queue ${name}`, error));
    }
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (instance instanceof WorkerHost) {
        instance.worker.on('error', (error: Error) => this.log(`worker ${instance.worker.name}`, error));
      }
    }
  }

  /** Connections dropped while shutting down are expected, not news. */
  beforeApplicationShutdown(): void {
    this.stopping = true;
  }

  private log(source: string, error: Error): void {
    if (this.stopping) return;
    const now = this.clock.now();
    const seen = this.last.get(source);
    if (seen && now - seen.at < QUIET_MS) {
      seen.suppressed += 1;
      return;
    }
    const more = seen && seen.suppressed > 0 ? ` (${seen.suppressed} more since)` : '';
    this.last.set(source, { at: now, suppressed: 0 });
    this.logger.error(`${source}: ${error.message}${more}`);
  }
}
