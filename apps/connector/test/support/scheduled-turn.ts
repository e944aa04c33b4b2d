import { getQueueToken } from '@nestjs/bullmq';
import type { INestApplicationContext } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { JobSchedulers } from '../../src/platform/queues/job-schedulers.js';
import type { QueueName } from '../../src/platform/queues/queue-names.js';
import { turnOffset } from '../../src/platform/queues/schedule-spread.js';

/**
 * The tick of a spread schedule (`schedule-spread.ts`) that takes `shop`, as its scheduler adds
 * it: the job whose id names the tick's nominal time, at the shop's turn of the current period.
 * A test that needs a shop's scheduled run (its first reconciliation, its poll) asks for it here
 * rather than waiting for its turn, up to a whole period away. `period`: which period (0: the
 * current one), so a later turn is a job of its own.
 */
export async function tickAtTurn(
  app: INestApplicationContext,
  schedule: QueueName,
  shop: string,
  period = 0,
): Promise<void> {
  const job = app.get(JobSchedulers).all.find((j) => j.queue.name === schedule);
  if (job === undefined) throw new Error(`no scheduler for ${schedule}`);
  const { periodMs } = job;
  const at = (Math.floor(Date.now() / periodMs) + period) * periodMs + turnOffset(schedule, shop, periodMs);
  const queue = app.get<Queue>(getQueueToken(schedule));
  await queue.add(job.name, job.data(), { ...job.opts(), jobId: `repeat:${job.name}:${at}` });
}
