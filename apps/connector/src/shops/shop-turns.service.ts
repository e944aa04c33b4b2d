import { Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import type { ShopConfig } from '../platform/config/shop-config.js';
import type { QueueName } from '../platform/queues/queue-names.js';
import { nominalTickTime, turnDue } from '../platform/queues/schedule-spread.js';
import { Shops } from './shops.js';

/**
 * Why: a spread schedule's job (`schedule-spread.ts`) takes only the shops whose turn came in its
 * tick, not every shop. The tick is the job's nominal time (its scheduler's id), else now (the
 * injected clock): a job put off and run again (a token not there yet) takes the same shops.
 */
@Injectable()
export class ShopTurns {
  constructor(
    private readonly shops: Shops,
    private readonly clock: Clock,
  ) {}

  /**
   * The shops served whose turn of `schedule` (every `periodMs`) came in the tick of the job
   * `jobId`, taken by a worker at `takenAt` (its `processedOn`): a tick taken late also takes
   * the turns of the ticks BullMQ skipped meanwhile (`turnDue`).
   */
  due(schedule: QueueName, periodMs: number, jobId?: string, takenAt?: number): ShopConfig[] {
    const at = nominalTickTime(jobId) ?? this.clock.now();
    return this.shops.all.filter((shop) => turnDue(schedule, shop.domain, periodMs, at, takenAt ?? at));
  }
}
