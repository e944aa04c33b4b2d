import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { JobSchedulers } from './job-schedulers.js';
import { flowProblems, QUEUE_FLOW } from './queue-flow.js';
import { ALL_QUEUES } from './queue-names.js';

const PROCESSOR_METADATA = 'bullmq:processor_metadata';

/**
 * Fails the boot unless the flow table (`QUEUE_FLOW`), the registered queues, the job classes
 * (`@Processor`, one per queue) and the schedulers agree (`flowProblems`).
 */
@Injectable()
export class JobClassesCheck implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly schedulers: JobSchedulers,
  ) {}

  onModuleInit(): void {
    const jobClasses = this.discovery
      .getProviders()
      .map((wrapper) => wrapper.instance?.constructor ?? wrapper.metatype)
      .filter((type): type is new (...args: never[]) => unknown => typeof type === 'function')
      .map((type) => ({ type, meta: Reflect.getMetadata(PROCESSOR_METADATA, type) as { name?: string } }))
      .filter(({ meta }) => meta !== undefined)
      .map(({ type, meta }) => ({ queue: meta.name ?? 'default', className: type.name }));
    const unique = [...new Map(jobClasses.map((c) => [c.className, c])).values()];
    const schedulers = this.schedulers.all.map((job) => job.queue.name);
    const problems = flowProblems(QUEUE_FLOW, ALL_QUEUES, unique, schedulers);
    if (problems.length > 0)
      throw new Error(`The flow table (queue-flow.ts) does not match the app: ${problems.join('; ')}`);
  }
}
