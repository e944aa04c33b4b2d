import type { DiscoveryService } from '@nestjs/core';
import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { FailedJobRecorder } from './failed-job-recorder.service.js';
import type { FailuresService } from './failures.service.js';
import { ReplayRegistry } from './replay-registry.service.js';

const STALLED = new Error('job stalled more than allowable limit');

/** A recorder whose failures table is an array; `subjectOf` as the kind registers it. */
function recorder(kind: string, subjectOf?: (payload: Record<string, unknown>) => string | undefined) {
  const recorded: Array<{ shop: string; jobKind: string; subjectKey: string }> = [];
  const registry = new ReplayRegistry();
  registry.register(kind, async () => undefined, subjectOf);
  const failures = {
    record: async (failure: { shop: string; jobKind: string; subjectKey: string }) => {
      recorded.push(failure);
    },
  } as unknown as FailuresService;
  return { recorded, recorder: new FailedJobRecorder({} as DiscoveryService, failures, registry) };
}

/** A job BullMQ failed for good itself (`finishedOn` set), never run by its guard. */
function stalledJob(name: string, data: Record<string, unknown>): Job {
  return { id: 'job-7', name, data, attemptsMade: 1, finishedOn: Date.now() } as unknown as Job;
}

describe('a job the queue failed itself', () => {
  it("is recorded under the subject its kind's guard uses, so the subject's next success resolves it", async () => {
    const { recorded, recorder: r } = recorder('drift-report', () => 'drift-report');
    await r.failed(stalledJob('drift-report', { shop: 'a.myshopify.com' }), STALLED);
    expect(recorded).toEqual([
      expect.objectContaining({
        shop: 'a.myshopify.com',
        jobKind: 'drift-report',
        subjectKey: 'drift-report',
      }),
    ]);
  });

  it('falls back to the product, the run, else the job id when the kind names no subject', async () => {
    const { recorded, recorder: r } = recorder('sync-product');
    await r.failed(stalledJob('sync-product', { shop: 'a.myshopify.com', productId: '42' }), STALLED);
    await r.failed(stalledJob('sync-product', { shop: 'a.myshopify.com', runId: 'r1' }), STALLED);
    await r.failed(stalledJob('sync-product', { shop: 'a.myshopify.com' }), STALLED);
    expect(recorded.map((f) => f.subjectKey)).toEqual(['42', 'run:r1', 'job-7']);
  });
});
