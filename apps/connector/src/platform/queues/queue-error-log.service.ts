import { getQueueToken, WorkerHost } from '@nestjs/bullmq';
import {
  type BeforeApplicationShutdown,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleInit,
} from '@nestjs/common';
import { DiscoveryService, ModuleRef } from '@nestjs/core';
import { FlowProducer, type Queue, QueueEvents } from 'bullmq';
import { Clock } from '#lib/clock';
import { BoundedErrorLog } from './bounded-error-log.js';
import { ALL_QUEUES } from './queue-names.js';

/** Anything of BullMQ that emits its connection's errors. */
interface ErrorEmitter {
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * Listens to the `error` events of every queue, worker, flow producer and queue-events listener
 * (their Redis or PostgreSQL connections' errors, the job schedulers' too: a queue forwards its
 * scheduler's). Without a listener BullMQ and ioredis print each error object whole, raw, as
 * fast as their retry loops spin while the backend is unreachable; here each source writes one
 * JSON line, then at most one line (with a count) per 10 seconds (`BoundedErrorLog`). The queues
 * are heard from module init, the workers as soon as they exist.
 */
@Injectable()
export class QueueErrorLog implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Queues');
  private readonly errors: BoundedErrorLog;
  private readonly heard = new WeakSet<object>();

  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly discovery: DiscoveryService,
    clock: Clock,
  ) {
    this.errors = new BoundedErrorLog(clock, (message) => this.logger.error(message));
  }

  onModuleInit(): void {
    this.listen();
  }

  /** The workers are made at module init (`@nestjs/bullmq`): those made after this one's are heard now. */
  onApplicationBootstrap(): void {
    this.listen();
  }

  beforeApplicationShutdown(): void {
    this.errors.stop();
  }

  private listen(): void {
    for (const name of ALL_QUEUES) {
      this.hear(`queue ${name}`, this.moduleRef.get<Queue>(getQueueToken(name), { strict: false }));
    }
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (instance instanceof WorkerHost) {
        // `worker` throws until @nestjs/bullmq made it.
        const worker = (instance as unknown as { _worker?: ErrorEmitter & { name: string } })._worker;
        if (worker) this.hear(`worker ${worker.name}`, worker);
      } else if (instance instanceof FlowProducer) this.hear('flow producer', instance);
      else if (instance instanceof QueueEvents) this.hear(`queue events ${instance.name}`, instance);
    }
  }

  private hear(source: string, emitter: ErrorEmitter): void {
    if (this.heard.has(emitter)) return;
    this.heard.add(emitter);
    emitter.on('error', this.errors.listener(source));
  }
}
