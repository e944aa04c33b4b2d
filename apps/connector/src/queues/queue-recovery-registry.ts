import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';

/** A BullMQ job scheduler a stage keeps: `ensure` upserts it (idempotent). */
export interface RecoverableScheduler {
  queue: Queue;
  /** The scheduler's id (its job name). */
  id: string;
  ensure(): Promise<void>;
}

/** Work PostgreSQL says is unfinished, enqueued again; resolves to how many jobs were asked for. */
export interface RecoverableWork {
  /** e.g. `inbox`, `enrichment-outbox`, `resync`, `media`. */
  name: string;
  requeue(): Promise<number>;
}

/**
 * Why: the queue backend may lose its data (Redis restarted without persistence, a failover to a
 * lagging replica, a flush) while PostgreSQL keeps the truth. Each stage registers here, at
 * module init, the schedulers it keeps and how to enqueue again what its tables say is
 * unfinished; `QueueStateWatch` uses them when the schedulers are found gone. The queues are
 * base, so the stages register with them, never the other way round.
 */
@Injectable()
export class QueueRecoveryRegistry {
  private readonly schedulerList: RecoverableScheduler[] = [];
  private readonly workList: RecoverableWork[] = [];

  scheduler(scheduler: RecoverableScheduler): void {
    this.schedulerList.push(scheduler);
  }

  work(work: RecoverableWork): void {
    this.workList.push(work);
  }

  get schedulers(): readonly RecoverableScheduler[] {
    return this.schedulerList;
  }

  get works(): readonly RecoverableWork[] {
    return this.workList;
  }
}
