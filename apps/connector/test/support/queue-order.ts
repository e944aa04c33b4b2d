import { setTimeout as sleep } from 'node:timers/promises';
import type { Queue } from 'bullmq';
import { inject } from 'vitest';
import { queueTestKit } from '#lib/testing';

/** What a job of the fairness tests carries: its shop, and enough to name it. */
export interface OrderedJob {
  shop: string;
  productId: string;
  reason: string;
}

/**
 * A queue of its own on the tests' backend (Redis when REDIS_URL is set, else PostgreSQL), and
 * `run`: one worker (one job at a time) started only once everything is queued, which resolves to
 * the jobs in the order the backend handed them out. The fairness tests assert that order: counts
 * and positions, never durations.
 */
export function orderedQueue<T extends OrderedJob>(name: string) {
  const kit = queueTestKit(inject('queueBackend'));
  const queue = kit.queue<T>(name) as Queue<T>;
  return {
    queue,
    async run(expected: number): Promise<T[]> {
      const order: T[] = [];
      const worker = kit.worker<T, void>(name, async (data) => {
        order.push(data);
      });
      try {
        for (let i = 0; i < 1_200 && order.length < expected; i++) await sleep(50);
        if (order.length < expected) throw new Error(`${order.length} jobs of ${expected} ran`);
        return order;
      } finally {
        await worker.close();
      }
    },
    close: () => queue.close(),
  };
}

/** How many of `shop`'s jobs ran before the first job `which` picks. */
export function jobsBefore<T extends OrderedJob>(
  order: readonly T[],
  shop: string,
  which: (job: T) => boolean,
): number {
  const at = order.findIndex(which);
  if (at < 0) throw new Error('the job never ran');
  return order.slice(0, at).filter((job) => job.shop === shop).length;
}
