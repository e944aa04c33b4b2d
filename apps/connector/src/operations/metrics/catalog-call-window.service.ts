import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { Observations } from '../../platform/reporting/observations.service.js';

const WINDOW_MS = 60_000;

/**
 * Catalog calls this process made in the last minute, per account: what the queue and budget
 * view sets against the budget. One timestamp per call, dropped after a minute (at 4 calls a
 * second, 240 numbers per account).
 */
@Injectable()
export class CatalogCallWindow implements OnModuleInit {
  private readonly calls = new Map<string, number[]>();

  constructor(
    private readonly observations: Observations,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.observations.subscribe({
      catalogCall: ({ account }) => {
        const times = this.calls.get(account) ?? [];
        times.push(this.clock.now());
        this.calls.set(account, times);
        if (times.length > 1_000) this.trim(times);
      },
    });
  }

  /** Calls to `account` in the last 60 s. */
  lastMinute(account: string): number {
    const times = this.calls.get(account);
    if (!times) return 0;
    this.trim(times);
    return times.length;
  }

  private trim(times: number[]): void {
    const since = this.clock.now() - WINDOW_MS;
    let drop = 0;
    while (drop < times.length && (times[drop] as number) < since) drop++;
    times.splice(0, drop);
  }
}
