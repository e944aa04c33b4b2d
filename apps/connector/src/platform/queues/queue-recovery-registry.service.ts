import { Injectable } from '@nestjs/common';

/** Work PostgreSQL says is unfinished, enqueued again; resolves to how many jobs were asked for. */
export interface RecoverableWork {
  /** e.g. `inbox`, `enrichment-outbox`, `resync`, `media`. */
  name: string;
  requeue(): Promise<number>;
}

/**
 * Why: the queue backend may lose its data (Redis restarted without persistence, a failover to a
 * lagging replica, a flush) while PostgreSQL keeps the truth. Each feature registers here, at
 * module init, how to enqueue again what its tables say is unfinished; `QueueStateWatch` calls
 * them, after re-creating `JobSchedulers`, when the schedulers are found gone. The queues are
 * base, so the stages register with them, never the other way round.
 */
@Injectable()
export class QueueRecoveryRegistry {
  private readonly workList: RecoverableWork[] = [];

  work(work: RecoverableWork): void {
    this.workList.push(work);
  }

  get works(): readonly RecoverableWork[] {
    return this.workList;
  }
}
