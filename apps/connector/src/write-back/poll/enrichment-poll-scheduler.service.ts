import { randomUUID } from 'node:crypto';
import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { ReplayRegistry } from '../../platform/failures/replay-registry.service.js';
import { enrichmentPollJobOptions } from '../../platform/queues/job-options.js';
import type { EnrichmentPollPayload } from '../../platform/queues/job-payloads.js';
import { JobName, QueueName } from '../../platform/queues/queue-names.js';
import { EnrichmentOutbox } from '../store/enrichment-outbox.repository.js';
import type { PollRunCounts, PollTrigger } from '../store/enrichment-poll-run.entity.js';
import { EnrichmentPollRuns } from '../store/enrichment-poll-runs.repository.js';
import { POLL_SUBJECT } from './shop-poll-failed.js';

/**
 * Where a poll stands, for the admin API. `paused`: it finished without polling a shop, every
 * shop it would have polled held while its catalog work waits (`counts.held`: why).
 */
export interface PollStatus {
  id: string;
  trigger: PollTrigger;
  status: 'queued' | 'running' | 'finished' | 'paused' | 'failed';
  requestedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  counts: PollRunCounts;
  /** The push work this poll found: products still waiting, and products pushed. */
  pushes: { pending: number; done: number };
  error: string | null;
}

/**
 * Starts polls now when an operator asks (the scheduled ones, every
 * `CONNECTOR_ENRICHMENT_POLL_INTERVAL_MS`, come from `JobSchedulers`), and reports where a poll stands.
 * Registers the poll's replay handler (a failed poll is replayed as a new poll).
 */
@Injectable()
export class EnrichmentPollScheduler implements OnModuleInit {
  constructor(
    private readonly runs: EnrichmentPollRuns,
    private readonly outbox: EnrichmentOutbox,
    private readonly registry: ReplayRegistry,
    @InjectQueue(QueueName.ENRICHMENT_POLL) private readonly queue: Queue<EnrichmentPollPayload>,
  ) {}

  onModuleInit(): void {
    this.registry.register(
      JobName.ENRICHMENT_POLL,
      async () => {
        await this.requestNow();
      },
      () => POLL_SUBJECT,
    );
  }

  /** Enqueues a poll now; resolves to its id. */
  async requestNow(): Promise<string> {
    const id = `poll-${randomUUID()}`;
    await this.runs.requested(id, 'admin');
    await this.queue.add(JobName.ENRICHMENT_POLL, { trigger: 'admin' }, enrichmentPollJobOptions(id));
    return id;
  }

  /** A poll's status, or null when there is no such poll. */
  async status(id: string): Promise<PollStatus | null> {
    const run = await this.runs.find(id);
    if (!run) return null;
    const status = run.finishedAt
      ? run.error
        ? 'failed'
        : pausedRun(run.counts)
          ? 'paused'
          : 'finished'
      : run.startedAt
        ? 'running'
        : 'queued';
    return {
      id: run.id,
      trigger: run.trigger,
      status,
      requestedAt: run.requestedAt.toISOString(),
      startedAt: run.startedAt?.toISOString() ?? null,
      finishedAt: run.finishedAt?.toISOString() ?? null,
      counts: run.counts,
      pushes: await this.outbox.pollProgress(id),
      error: run.error,
    };
  }
}

/** A finished poll that polled no shop, every one held (`PollStatus` `paused`). */
function pausedRun(counts: PollRunCounts): boolean {
  return Object.keys(counts.held ?? {}).length > 0 && Object.keys(counts.shops ?? {}).length === 0;
}
