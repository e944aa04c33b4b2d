import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DriftReportJobResult } from '../src/drift/drift-report.job.js';
import { DriftReportsRepository } from '../src/drift/store/drift-reports.repository.js';
import { FailuresService } from '../src/platform/failures/failures.service.js';
import { JobSchedulers } from '../src/platform/queues/job-schedulers.js';
import { JobName, QueueName } from '../src/platform/queues/queue-names.js';
import { eventually } from './support/connector-harness.js';
import { type SyncWorld, startSyncWorld } from './support/sync-world.js';

const DAY_MS = 86_400_000;

// The scheduled drift report: a scheduler of the connector's (daily here, the default), which
// BullMQ runs at once when it is created at boot; it enqueues one job per shop, which stores the
// shop's report. A scheduled run soon after skips the shop; a shop's job that fails lands in the
// failures inbox.
describe('scheduled drift report', () => {
  let world: SyncWorld;

  beforeAll(async () => {
    world = await startSyncWorld({ env: { CONNECTOR_DRIFT_INTERVAL_MS: String(DAY_MS) } });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('runs once per interval across replicas, skips a recent report, and its failures reach the inbox', async () => {
    const app = world.harness.connector.app;
    const scheduler = app.get(JobSchedulers).all.find((job) => job.name === JobName.DRIFT_REPORT);
    expect(scheduler?.everyMs).toBe(DAY_MS);
    const queue = app.get<Queue>(getQueueToken(QueueName.DRIFT_REPORT));
    expect((await queue.getJobScheduler(JobName.DRIFT_REPORT))?.every).toBe(DAY_MS);

    // The boot-time run: the shop's report is stored without anyone asking.
    const reports = app.get(DriftReportsRepository);
    const first = await eventually(
      async () => (await reports.latest(world.shop.domain)) ?? undefined,
      30_000,
    );
    expect(first.shop).toBe(world.shop.domain);

    // The scheduler's next run (the same job it adds): the shop's report is recent, so skipped.
    await queue.add(JobName.DRIFT_REPORT, {}, { ...scheduler?.opts() });
    const skipped = await eventually(async () => {
      const done = await queue.getJobs(['completed']);
      return done.some(
        (job) =>
          (job.returnvalue as DriftReportJobResult | null) !== null &&
          'skipped' in (job.returnvalue as DriftReportJobResult) &&
          job.data.shop === world.shop.domain,
      );
    }, 30_000);
    expect(skipped).toBe(true);
    expect((await reports.latest(world.shop.domain))?.id).toBe(first.id);

    // A shop's report job that fails for good is in the failures inbox, with its shop.
    const broken = 'nowhere.myshopify.com';
    await queue.add(JobName.DRIFT_REPORT, { shop: broken }, { attempts: 1 });
    const failure = await eventually(async () => {
      const open = await app.get(FailuresService).openCounts();
      return open.find((f) => f.jobKind === JobName.DRIFT_REPORT && f.shop === broken);
    }, 30_000);
    expect(failure.count).toBe(1);
  });
});
