import { describe, expect, it } from 'vitest';
import { flowProblems, QUEUE_FLOW, type QueueFlow } from './queue-flow.js';
import { ALL_QUEUES } from './queue-names.js';

describe('flowProblems', () => {
  const row = (queue: string, className: string, scheduled = false): QueueFlow =>
    ({
      queue,
      job: { className, file: `${queue}.job.ts` },
      replayBy: null,
      enqueuedBy: [],
      schedule: scheduled ? { setting: 'X', everyMs: () => 1, data: () => ({}), opts: () => ({}) } : null,
      retry: { attempts: 1, backoff: 'none', failuresInbox: false },
    }) as QueueFlow;
  const table = [row('sync-product', 'SyncProductJob'), row('inbox-sweep', 'InboxSweepJob', true)];
  const queues = ['sync-product', 'inbox-sweep'];

  it('accepts the table when the queues, job classes and schedulers match it', () => {
    expect(
      flowProblems(
        table,
        queues,
        [
          { queue: 'sync-product', className: 'SyncProductJob' },
          { queue: 'inbox-sweep', className: 'InboxSweepJob' },
        ],
        ['inbox-sweep'],
      ),
    ).toEqual([]);
  });

  it('names a queue without a job class, one with two, a class on a queue the table does not name', () => {
    expect(
      flowProblems(table, queues, [
        { queue: 'sync-product', className: 'SyncProductJob' },
        { queue: 'sync-product', className: 'OtherSyncJob' },
        { queue: 'enrichment-poll', className: 'PollJob' },
      ]),
    ).toEqual([
      'queue "sync-product" has several job classes: SyncProductJob, OtherSyncJob',
      'queue "inbox-sweep" has no job class',
      'PollJob processes queue "enrichment-poll", which the flow table does not name',
    ]);
  });

  it('names a queue missing from the table, a row without a queue, another class, an unlisted scheduler', () => {
    expect(
      flowProblems(
        [row('sync-product', 'SyncProductJob'), row('inbox-sweep', 'SweepJob'), row('gone', 'GoneJob')],
        [...queues, 'extra'],
        [
          { queue: 'sync-product', className: 'SyncProductJob' },
          { queue: 'inbox-sweep', className: 'InboxSweepJob' },
          { queue: 'gone', className: 'GoneJob' },
          { queue: 'extra', className: 'ExtraJob' },
        ],
        ['sync-product'],
      ),
    ).toEqual([
      'queue "extra" is not in the flow table',
      'queue "inbox-sweep" is processed by InboxSweepJob, the flow table says SweepJob',
      'the flow table names unregistered queue "gone"',
      'ExtraJob processes queue "extra", which the flow table does not name',
      'a scheduler runs for queue "sync-product", which the flow table gives no schedule',
    ]);
  });

  it('has one row per queue of the connector, in the order of queue-names.ts', () => {
    expect(QUEUE_FLOW.map((f) => f.queue)).toEqual(ALL_QUEUES);
  });
});
