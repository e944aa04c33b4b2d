import { describe, expect, it } from 'vitest';
import { jobClassProblems } from './job-classes.check.js';

describe('jobClassProblems', () => {
  const queues = ['sync-product', 'inbox-sweep'];

  it('accepts one job class per queue', () => {
    expect(
      jobClassProblems(queues, [
        { queue: 'sync-product', className: 'SyncProductJob' },
        { queue: 'inbox-sweep', className: 'InboxSweepJob' },
      ]),
    ).toEqual([]);
  });

  it('names a queue without a job class, one with two, and a class on an unknown queue', () => {
    expect(
      jobClassProblems(queues, [
        { queue: 'sync-product', className: 'SyncProductJob' },
        { queue: 'sync-product', className: 'OtherSyncJob' },
        { queue: 'enrichment-poll', className: 'PollJob' },
      ]),
    ).toEqual([
      'queue "sync-product" has several job classes: SyncProductJob, OtherSyncJob',
      'queue "inbox-sweep" has no job class',
      'PollJob processes unknown queue "enrichment-poll"',
    ]);
  });
});
