import type { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { JobSchedulers } from './job-schedulers.js';
import type { ScheduleConfig } from './queue-flow.js';
import { QueueName } from './queue-names.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Each queue's scheduler upserts and removals, as a fake queue records them. */
function schedulersOf(config: ScheduleConfig) {
  const upserts: Array<{ queue: string; id: string; every: number }> = [];
  const removed: string[] = [];
  const queue = (name: QueueName) =>
    ({
      name,
      upsertJobScheduler: async (id: string, repeat: { every: number }) => {
        upserts.push({ queue: name, id, every: repeat.every });
      },
      removeJobScheduler: async (id: string) => {
        removed.push(id);
      },
    }) as unknown as Queue;
  return { schedulers: new JobSchedulers(config, queue), upserts, removed };
}

const defaults = {
  inbox: { sweepIntervalMs: MINUTE },
  enrichment: { pollIntervalMs: MINUTE },
  reconcile: { intervalMs: 6 * HOUR, driftIntervalMs: 24 * HOUR },
  retention: { intervalMs: HOUR },
  shopify: { subscriptionCheckMs: HOUR },
  sync: { scopeWalkIntervalMs: HOUR },
  alerts: { checkIntervalMs: 30_000 },
} as unknown as ScheduleConfig;

describe('the job schedulers', () => {
  it('tick the schedules that visit every shop 60 times a period (10 s at least), the others once', async () => {
    const { schedulers, upserts } = schedulersOf(defaults);
    await schedulers.ensure();
    expect(Object.fromEntries(upserts.map((u) => [u.queue, u.every]))).toEqual({
      [QueueName.INBOX_SWEEP]: MINUTE,
      [QueueName.RETENTION]: HOUR,
      [QueueName.ALERT_DELIVERY]: 30_000,
      // Spread: each tick takes the shops whose turn came.
      [QueueName.ENRICHMENT_POLL]: 10_000,
      [QueueName.SUBSCRIPTION_CHECK]: MINUTE,
      [QueueName.SCOPE_WALK]: MINUTE,
      [QueueName.RECONCILE]: 6 * MINUTE,
      [QueueName.DRIFT_REPORT]: 24 * MINUTE,
    });
    const periods = Object.fromEntries(schedulers.all.map((job) => [job.name, job.periodMs]));
    expect(periods[QueueName.DRIFT_REPORT]).toBe(24 * HOUR);
    expect(periods[QueueName.RECONCILE]).toBe(6 * HOUR);
  });

  it('stay one scheduler per queue (one job per tick across replicas), upserted again by each replica', async () => {
    const { schedulers, upserts } = schedulersOf(defaults);
    await schedulers.ensure();
    await schedulers.ensure();
    const ids = upserts.map((u) => `${u.queue}/${u.id}`);
    expect(new Set(ids).size).toBe(8);
    expect(upserts.every((u) => u.id === u.queue)).toBe(true);
  });

  it('run a short period as it is (every shop at each run), and remove a schedule turned off', async () => {
    const { schedulers, upserts, removed } = schedulersOf({
      ...defaults,
      reconcile: { intervalMs: 1_000, driftIntervalMs: 0 },
      enrichment: { pollIntervalMs: 500 },
    } as unknown as ScheduleConfig);
    await schedulers.ensure();
    const every = Object.fromEntries(upserts.map((u) => [u.queue, u.every]));
    expect(every[QueueName.RECONCILE]).toBe(1_000);
    expect(every[QueueName.ENRICHMENT_POLL]).toBe(500);
    expect(every[QueueName.DRIFT_REPORT]).toBeUndefined();
    expect(removed).toEqual([QueueName.DRIFT_REPORT]);
  });
});
