import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job, Queue } from 'bullmq';
import { Clock } from '#lib/clock';
import { ReconcileSettings } from '../platform/config/settings.js';
import { JobGuard } from '../platform/failures/job-guard.service.js';
import { driftReportJobOptions } from '../platform/queues/job-options.js';
import { DRIFT_REPORT_SUBJECT, type DriftReportPayload } from '../platform/queues/job-payloads.js';
import { JobName, QueueName } from '../platform/queues/queue-names.js';
import { WORKER_OPTIONS } from '../platform/queues/worker-options.js';
import { ShopTurns } from '../shops/shop-turns.service.js';
import { DriftService } from './drift.service.js';
import { DriftReportsRepository } from './store/drift-reports.repository.js';

/** What one drift report job did: the shops it enqueued (scheduled), or the report it stored. */
export type DriftReportJobResult =
  | { enqueued: string[] }
  | { shop: string; reportId: string; findings: number }
  | { shop: string; skipped: 'recent-report' };

/**
 * Why: the scheduled drift report (one job per tick across replicas) only enqueues one job per
 * shop whose turn came in the tick (`ShopTurns`: each shop once per `CONNECTOR_DRIFT_INTERVAL_MS`,
 * spread over it); each shop's job, at `bulk` priority, runs and stores that
 * shop's report (its catalog reads go at the budget's `bulk` priority, Shopify is read in bulk
 * under the shop's bulk lock above the threshold). A shop's job runs under the job guard like
 * every job: one that fails for good lands in the failures inbox (subject `drift-report`, one
 * open failure per shop and cause; `DriftReportReplay` enqueues it again), and the shop's next
 * report that succeeds resolves it (a skipped one does not: it made no report). A breaker
 * open or a shop without a token makes it wait. A scheduled shop's job whose last report is
 * younger than half the interval is skipped: a tick run again (a scheduler created anew) does
 * not add a report.
 */
@Processor(QueueName.DRIFT_REPORT, WORKER_OPTIONS)
export class DriftReportJob extends WorkerHost {
  constructor(
    private readonly drift: DriftService,
    private readonly turns: ShopTurns,
    private readonly reports: DriftReportsRepository,
    private readonly settings: ReconcileSettings,
    private readonly clock: Clock,
    @InjectQueue(QueueName.DRIFT_REPORT) private readonly queue: Queue<DriftReportPayload>,
    private readonly guard: JobGuard,
  ) {
    super();
  }

  async process(job: Job<DriftReportPayload>, token?: string): Promise<DriftReportJobResult> {
    const { shop } = job.data;
    if (shop === undefined) {
      const due = this.turns.due(
        QueueName.DRIFT_REPORT,
        this.settings.driftIntervalMs,
        job.id,
        job.processedOn,
      );
      const enqueued = due.map((s) => s.domain);
      for (const domain of enqueued) await enqueueDriftReport(this.queue, domain, true);
      return { enqueued };
    }
    const subject = { shop, key: DRIFT_REPORT_SUBJECT };
    const doneFor = (outcome: { result: DriftReportJobResult } | { error: unknown }) =>
      'result' in outcome && 'skipped' in outcome.result ? [] : [subject];
    return this.guard.run(job, token, { ...subject, doneFor }, async () => {
      if (job.data.scheduled === true) {
        const last = await this.reports.latest(shop);
        const age = last === null ? Number.POSITIVE_INFINITY : this.clock.now() - last.createdAt.getTime();
        if (age < this.settings.driftIntervalMs / 2) return { shop, skipped: 'recent-report' };
      }
      const recorded = await this.drift.report(shop);
      const findings = Object.values(recorded.report.counts).reduce((sum, n) => sum + n, 0);
      return { shop, reportId: recorded.report.id, findings };
    });
  }
}

/** Enqueues one shop's drift report job (coalesced per shop while one waits). */
export async function enqueueDriftReport(
  queue: Queue<DriftReportPayload>,
  shop: string,
  scheduled = false,
): Promise<void> {
  await queue.add(
    JobName.DRIFT_REPORT,
    { shop, ...(scheduled ? { scheduled } : {}) },
    driftReportJobOptions(shop),
  );
}
