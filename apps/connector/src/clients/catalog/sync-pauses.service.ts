import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { OperationsSettings } from '../../platform/config/settings.js';
import { ALL_SHOPS } from './sync-pause.entity.js';
import { SyncPauseRepository } from './sync-pause.repository.js';

/** An operator's pause as the gate and the views see it. */
export interface OperatorPause {
  /** A shop domain, or `*` (every shop). */
  scope: string;
  reason: string;
  /** ISO 8601. */
  since: string;
}

/**
 * The operators' sync pauses, read from PostgreSQL into memory so the sync job's gate check
 * stays synchronous and cheap: this replica sees its own pause or resume at once, the others
 * within `CONNECTOR_SYNC_PAUSE_REFRESH_MS`. A failed read keeps the last known pauses (a
 * PostgreSQL blip neither lifts nor invents one).
 */
@Injectable()
export class SyncPauses implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('SyncPauses');
  private pauses = new Map<string, OperatorPause>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly repository: SyncPauseRepository,
    private readonly clock: Clock,
    private readonly settings: OperationsSettings,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.settings.pauseRefreshMs);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** The pause holding `shop` back (its own, else the all-shops one), or null. */
  pauseOf(shop: string): OperatorPause | null {
    return this.pauses.get(shop) ?? this.pauses.get(ALL_SHOPS) ?? null;
  }

  all(): OperatorPause[] {
    return [...this.pauses.values()];
  }

  async pause(scope: string, reason: string): Promise<OperatorPause> {
    await this.repository.pause(scope, reason, new Date(this.clock.now()));
    await this.refresh(true);
    const pause = this.pauses.get(scope);
    if (!pause) throw new Error(`The pause of ${scope} was not stored`);
    this.logger.warn(`Syncing paused by an operator: ${scope === ALL_SHOPS ? 'every shop' : scope}`);
    return pause;
  }

  /** Resolves to whether `scope` was paused. */
  async resume(scope: string): Promise<boolean> {
    const lifted = await this.repository.resume(scope);
    await this.refresh(true);
    if (lifted)
      this.logger.log(`Syncing resumed by an operator: ${scope === ALL_SHOPS ? 'every shop' : scope}`);
    return lifted;
  }

  private async refresh(strict = false): Promise<void> {
    try {
      const rows = await this.repository.all();
      this.pauses = new Map(
        rows.map((row) => [
          row.scope,
          { scope: row.scope, reason: row.reason, since: row.pausedAt.toISOString() },
        ]),
      );
    } catch (error) {
      if (strict) throw error;
      this.logger.warn(
        `Could not read the sync pauses (keeping the last known): ${(error as Error).message}`,
      );
    }
  }
}
