import { describe, expect, it } from 'vitest';
import type { Housekeeping } from '../reporting/housekeeping.js';
import type { QueueFlow } from './queue-flow.js';
import { registrationProblems } from './registration-problems.js';

describe('registrationProblems', () => {
  const row = (queue: string, replayBy: string | null): QueueFlow =>
    ({
      queue,
      job: { className: `${queue}Job`, file: `${queue}.job.ts` },
      replayBy,
      enqueuedBy: [],
      schedule: null,
      retry: { attempts: 1, backoff: 'none', failuresInbox: replayBy !== null },
    }) as QueueFlow;
  const flow = [row('sync-product', 'SyncReplay'), row('inbox-sweep', null)];
  const housekeeping: Housekeeping = {
    pruned: [
      { name: 'inbox', owner: 'InboxRetention' },
      { name: 'sync_records', owner: 'SyncRecordsRetention' },
    ],
    redacted: [
      { owner: 'InboxShopData', tables: ['inbox'] },
      { owner: 'DriftRetention', tables: ['drift_findings', 'drift_reports'] },
    ],
  };

  it('accepts registries holding exactly what the tables list (shop-data tables in any order)', () => {
    expect(
      registrationProblems(flow, housekeeping, {
        replayKinds: ['sync-product'],
        pruned: ['sync_records', 'inbox'],
        redacted: [['drift_reports', 'drift_findings'], ['inbox']],
      }),
    ).toEqual([]);
  });

  it('names each registration the tables do not list', () => {
    expect(
      registrationProblems(flow, housekeeping, {
        replayKinds: ['sync-product', 'inbox-sweep', 'sync-media'],
        pruned: ['inbox', 'sync_records', 'push_history'],
        redacted: [['inbox'], ['drift_findings', 'drift_reports'], ['sync_pauses']],
      }),
    ).toEqual([
      'a replay handler is registered for "inbox-sweep", which the flow table gives no replayBy',
      'a replay handler is registered for "sync-media", which the flow table gives no replayBy',
      'retention prunes "push_history", which housekeeping.ts does not list',
      "shop data of sync_pauses is registered, which housekeeping.ts lists as no owner's tables",
    ]);
  });

  it('names each listed registration the registries miss', () => {
    expect(
      registrationProblems(flow, housekeeping, {
        replayKinds: [],
        pruned: ['inbox'],
        redacted: [['inbox']],
      }),
    ).toEqual([
      'SyncReplay registers no replay handler for "sync-product" (the flow table\'s replayBy)',
      'SyncRecordsRetention registers no retention of "sync_records" (housekeeping.ts lists it)',
      'DriftRetention registers no shop data of drift_findings, drift_reports (housekeeping.ts lists it)',
    ]);
  });

  it("names an owner whose registered tables are grouped otherwise than the table's", () => {
    expect(
      registrationProblems(flow, housekeeping, {
        replayKinds: ['sync-product'],
        pruned: ['inbox', 'sync_records'],
        redacted: [['inbox', 'drift_reports'], ['drift_findings']],
      }),
    ).toEqual([
      "shop data of drift_reports, inbox is registered, which housekeeping.ts lists as no owner's tables",
      "shop data of drift_findings is registered, which housekeeping.ts lists as no owner's tables",
      'InboxShopData registers no shop data of inbox (housekeeping.ts lists it)',
      'DriftRetention registers no shop data of drift_findings, drift_reports (housekeeping.ts lists it)',
    ]);
  });
});
