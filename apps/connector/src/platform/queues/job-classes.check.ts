import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { ALL_QUEUES } from './queue-names.js';

const PROCESSOR_METADATA = 'bullmq:processor_metadata';

/**
 * Why the given job classes do not cover the queues one to one: a queue without a job class
 * would fill up silently, and two classes on one queue would race. Empty when all is well.
 */
export function jobClassProblems(
  queues: readonly string[],
  jobClasses: ReadonlyArray<{ queue: string; className: string }>,
): string[] {
  const problems: string[] = [];
  for (const queue of queues) {
    const owners = jobClasses.filter((c) => c.queue === queue).map((c) => c.className);
    if (owners.length === 0) problems.push(`queue "${queue}" has no job class`);
    if (owners.length > 1) problems.push(`queue "${queue}" has several job classes: ${owners.join(', ')}`);
  }
  for (const c of jobClasses) {
    if (!queues.includes(c.queue)) problems.push(`${c.className} processes unknown queue "${c.queue}"`);
  }
  return problems;
}

/** Fails the boot unless every queue name has exactly one job class (`*.job.ts`). */
@Injectable()
export class JobClassesCheck implements OnModuleInit {
  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    const jobClasses = this.discovery
      .getProviders()
      .map((wrapper) => wrapper.instance?.constructor ?? wrapper.metatype)
      .filter((type): type is new (...args: never[]) => unknown => typeof type === 'function')
      .map((type) => ({ type, meta: Reflect.getMetadata(PROCESSOR_METADATA, type) as { name?: string } }))
      .filter(({ meta }) => meta !== undefined)
      .map(({ type, meta }) => ({ queue: meta.name ?? 'default', className: type.name }));
    const unique = [...new Map(jobClasses.map((c) => [c.className, c])).values()];
    const problems = jobClassProblems(ALL_QUEUES, unique);
    if (problems.length > 0) throw new Error(`Job classes do not match the queues: ${problems.join('; ')}`);
  }
}
