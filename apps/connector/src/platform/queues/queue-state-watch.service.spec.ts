import { EventEmitter } from 'node:events';
import type { Queue } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { SystemClock } from '#lib/clock';
import type { OperationsSettings, QueueSettings } from '../config/settings.js';
import { DependencyHealth } from '../reporting/dependency-health.service.js';
import { Observations } from '../reporting/observations.service.js';
import type { JobSchedulers } from './job-schedulers.js';
import { QueueRecoveryRegistry } from './queue-recovery-registry.service.js';
import { QUEUE_DEPENDENCY, QueueStateWatch } from './queue-state-watch.service.js';

/** A queue whose scheduler exists or not, and which can report an error (a dropped connection). */
class FakeQueue extends EventEmitter {
  schedulerExists = true;
  async getJobScheduler(): Promise<object | undefined> {
    return this.schedulerExists ? {} : undefined;
  }
}

describe('QueueStateWatch', () => {
  let watch: QueueStateWatch | undefined;
  afterEach(() => watch?.beforeApplicationShutdown());

  function setUp() {
    const queue = new FakeQueue();
    const registry = new QueueRecoveryRegistry();
    const calls: string[] = [];
    const schedulers = {
      all: [{ name: 'inbox-sweep', queue: queue as unknown as Queue }],
      ensure: async () => {
        calls.push('ensure');
        queue.schedulerExists = true;
      },
    } as unknown as JobSchedulers;
    registry.work({
      name: 'inbox',
      requeue: async () => {
        calls.push('requeue');
        return 3;
      },
    });
    const clock = new SystemClock();
    const health = new DependencyHealth(clock, { shopCheckConcurrency: 8 } as OperationsSettings);
    const lost: number[] = [];
    const observations = new Observations();
    observations.subscribe({ queueStateLost: ({ missingSchedulers }) => lost.push(missingSchedulers) });
    const settings = { checkIntervalMs: 3_600_000, redisUrl: 'redis://127.0.0.1:6379' } as QueueSettings;
    watch = new QueueStateWatch(registry, health, observations, schedulers, clock, settings);
    watch.onApplicationBootstrap();
    const report = () => health.snapshot()[QUEUE_DEPENDENCY];
    return { queue, calls, lost, report, watch };
  }

  it('does nothing while every scheduler it has seen is there', async () => {
    const { calls, report, watch } = setUp();
    await watch.check();
    await watch.check();
    expect(calls).toEqual([]);
    expect(report()).toMatchObject({ status: 'up', details: { stateLosses: 0, lastStateLoss: null } });
  });

  it('repairs when a scheduler is gone: schedulers re-created, work enqueued again, counted and reported', async () => {
    const { queue, calls, lost, report, watch } = setUp();
    await watch.check();
    queue.schedulerExists = false;
    await watch.check();
    expect(calls).toEqual(['ensure', 'requeue']);
    expect(lost).toEqual([1]);
    expect(report()).toMatchObject({
      status: 'up',
      details: {
        backend: 'redis',
        stateLosses: 1,
        lastStateLoss: { missingSchedulers: ['inbox-sweep'], schedulersRecreated: 1, requeued: { inbox: 3 } },
      },
    });
  });

  it('checks again as soon as a queue answers after an error (a reconnect), without waiting for the interval', async () => {
    const { queue, calls, report, watch } = setUp();
    await watch.check();
    queue.schedulerExists = false;
    queue.emit('error', new Error('connect ECONNREFUSED'));
    const deadline = Date.now() + 10_000;
    while (calls.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toEqual(['ensure', 'requeue']);
    expect(report()?.details.stateLosses).toBe(1);
  });

  it('does not repair at boot, before it has seen the schedulers the stages are still creating', async () => {
    const { queue, calls, watch } = setUp();
    queue.schedulerExists = false;
    await watch.check();
    expect(calls).toEqual([]);
  });
});
