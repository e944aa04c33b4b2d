import {
  type BeforeApplicationShutdown,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { Clock } from '#lib/clock';
import { QueueSettings } from '../config/settings.js';
import { DependencyHealth } from '../reporting/dependency-health.service.js';
import { Observations } from '../reporting/observations.service.js';
import { JobSchedulers } from './job-schedulers.js';
import { QueueRecoveryRegistry } from './queue-recovery-registry.service.js';

/** The name of the queue's entry in `/health`'s `dependencies`. */
export const QUEUE_DEPENDENCY = 'queue';
const RECONNECT_RETRY_MS = 1_000;

/** The last time the queue's state was found lost, and what was done about it. */
export interface QueueStateLoss {
  at: string;
  missingSchedulers: string[];
  schedulersRecreated: number;
  requeued: Record<string, number>;
}

/**
 * Notices that the queue backend lost its data, and repairs it from PostgreSQL: every
 * `CONNECTOR_QUEUE_CHECK_INTERVAL_MS`, and as soon as a queue answers again after an error (a
 * reconnect), it checks that the `JobSchedulers` exist. When one is gone once they were all created (or
 * once this watch has seen them all), every scheduler is re-created and every feature enqueues again what its tables say is unfinished
 * (`QueueRecoveryRegistry`). Said in the log, the `connector_queue_state_lost_total` metric and
 * `/health`'s `dependencies.queue`; readiness is untouched (it means "can take webhooks").
 * Several replicas may repair at once: every enqueue is deduplicated.
 */
@Injectable()
export class QueueStateWatch implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('QueueStateWatch');
  private timer: NodeJS.Timeout | undefined;
  private soon: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private stopped = false;
  private losses = 0;
  /** Set once a check found every scheduler: before that, the stages may still be creating them (boot). */
  private sawAll = false;
  private lastLoss: QueueStateLoss | null = null;

  constructor(
    private readonly registry: QueueRecoveryRegistry,
    private readonly health: DependencyHealth,
    private readonly observations: Observations,
    private readonly schedulers: JobSchedulers,
    private readonly clock: Clock,
    private readonly settings: QueueSettings,
  ) {}

  onApplicationBootstrap(): void {
    this.publish('up', null);
    for (const job of this.schedulers.all) job.queue.on('error', () => this.checkSoon());
    this.timer = setInterval(() => void this.check().catch(() => undefined), this.settings.checkIntervalMs);
    this.timer.unref();
  }

  beforeApplicationShutdown(): void {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.soon);
  }

  /** The last time this process found the queue's state lost (and repaired it); null: never. */
  lastStateLoss(): QueueStateLoss | null {
    return this.lastLoss;
  }

  /** One check now (the schedule, a reconnect, tests); a check already running is joined. */
  check(): Promise<void> {
    this.running ??= this.checkOnce().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** After a queue error: check once the queue answers again, retrying each second until then. */
  private checkSoon(): void {
    if (this.stopped || this.soon !== undefined) return;
    this.soon = setTimeout(() => {
      this.soon = undefined;
      this.check().catch(() => this.checkSoon());
    }, RECONNECT_RETRY_MS);
    this.soon.unref();
  }

  private async checkOnce(): Promise<void> {
    if (this.stopped) return;
    const missing: string[] = [];
    try {
      for (const job of this.schedulers.all) {
        if (!(await job.queue.getJobScheduler(job.name))) missing.push(job.name);
      }
    } catch (error) {
      this.publish('down', error instanceof Error ? error.message : String(error));
      throw error;
    }
    if (missing.length === 0) this.sawAll = true;
    else if (this.sawAll || this.schedulers.booted) await this.recover(missing);
    this.publish('up', null);
  }

  private async recover(missing: string[]): Promise<void> {
    this.logger.error(
      `The queue backend lost its state (job schedulers gone: ${missing.join(', ')}): re-creating the schedulers and enqueueing again the unfinished work PostgreSQL holds`,
    );
    await this.schedulers.ensure();
    const requeued: Record<string, number> = {};
    for (const work of this.registry.works) {
      try {
        requeued[work.name] = await work.requeue();
      } catch (error) {
        this.logger.error(`Could not enqueue the unfinished ${work.name} work again: ${String(error)}`);
        throw error;
      }
    }
    this.losses += 1;
    this.lastLoss = {
      at: new Date(this.clock.now()).toISOString(),
      missingSchedulers: missing,
      schedulersRecreated: this.schedulers.all.length,
      requeued,
    };
    this.observations.queueStateLost({ missingSchedulers: missing.length });
    const summary = Object.entries(requeued)
      .map(([name, n]) => `${name} ${n}`)
      .join(', ');
    this.logger.warn(
      `Queue state repaired: ${this.schedulers.all.length} scheduler(s) re-created, enqueued again: ${summary || 'nothing'}`,
    );
  }

  private publish(status: 'up' | 'down', error: string | null): void {
    this.health.publish(QUEUE_DEPENDENCY, {
      status,
      details: {
        backend: this.settings.redisUrl === null ? 'postgres' : 'redis',
        ...(error === null ? {} : { error }),
        stateLosses: this.losses,
        lastStateLoss: this.lastLoss,
      },
    });
  }
}
