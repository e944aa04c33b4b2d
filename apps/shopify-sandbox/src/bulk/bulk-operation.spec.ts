import { describe, expect, it } from 'vitest';
import { type BulkOperationRecord, resultsExpireAt, viewStatus } from './bulk-operation.js';

const SECOND = Date.UTC(2026, 6, 1);

function finished(finishedAt: number | null, urlTtlMs: number): BulkOperationRecord {
  return {
    id: 1,
    type: 'QUERY',
    query: '{ products { edges { node { id } } } }',
    groupObjects: false,
    status: finishedAt === null ? 'RUNNING' : 'COMPLETED',
    errorCode: null,
    createdAt: SECOND,
    finishedAt,
    objectCount: 1,
    rootObjectCount: 1,
    lines: [{ text: '{}', root: true }],
    written: 1,
    file: Buffer.from('{}\n'),
    faults: { failHalfway: false, urlTtlMs },
  };
}

describe('a run’s results expiry', () => {
  it('is its own urlTtlMs after it ended, rounded down to a whole second', () => {
    expect(resultsExpireAt(finished(SECOND + 400, 5_000))).toBe(SECOND + 5_000);
    expect(resultsExpireAt(finished(SECOND + 400, 5_600))).toBe(SECOND + 6_000);
    expect(resultsExpireAt(finished(null, 5_000))).toBeNull();
  });

  it('ends a lifetime under a second with the run, or within a millisecond of it', () => {
    const early = finished(SECOND + 400, 1);
    expect(viewStatus(early, { now: SECOND + 400 })).toBe('EXPIRED');
    const late = finished(SECOND + 999, 1);
    expect(viewStatus(late, { now: SECOND + 999 })).toBe('COMPLETED');
    expect(viewStatus(late, { now: SECOND + 1_000 })).toBe('EXPIRED');
  });
});
