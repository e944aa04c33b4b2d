import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { CatalogSettings } from '../../platform/config/settings.js';
import { type CatalogAccount, CatalogClients } from './catalog-clients.service.js';
import { SyncPauses } from './sync-pauses.service.js';

/** Why a shop's sync waits, for the operators' views. */
export interface PauseState {
  paused: boolean;
  /**
   * `breaker`: its catalog account's breaker is open; `operator`: paused through the admin API;
   * `catalog-key`: a shop that installed the app, waiting for the operator to set its catalog key.
   */
  by: 'breaker' | 'operator' | 'catalog-key' | null;
  reason: string | null;
  /** ISO 8601 of an operator's pause. */
  since: string | null;
}

/**
 * Holds back catalog work for shops whose account's breaker is open (revoked key, catalog
 * down), or whose syncing an operator paused (`SyncPauses`), while other shops go on. Paused work makes no calls, so the breaker could
 * never close by itself: a cheap probe (the taxonomy read, at interactive priority) goes out
 * when each cool-down ends, and its success closes the breaker.
 *
 * Breakers live in each process, so the probe is per process, not a scheduled job: a replica
 * whose breaker is closed has nothing to probe. At boot every account is probed once (the boot
 * check), so a revoked key pauses its shops before any job runs.
 */
@Injectable()
export class CatalogGate implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('CatalogGate');
  private readonly probing = new Set<string>();
  private readonly watched = new Set<string>();
  private readonly unsubscribes: Array<() => void> = [];
  private stopped = false;

  constructor(
    private readonly clients: CatalogClients,
    private readonly clock: Clock,
    private readonly settings: CatalogSettings,
    private readonly pauses: SyncPauses,
  ) {}

  onApplicationBootstrap(): void {
    for (const account of this.clients.all()) this.watch(account);
  }

  /** Follows the account's breaker (once per account; an account made later is watched at its first use). */
  private watch(account: CatalogAccount): void {
    if (this.watched.has(account.id) || this.stopped) return;
    this.watched.add(account.id);
    this.unsubscribes.push(
      account.client.breaker.onStateChange(({ to, reason }) => {
        if (to === 'open') {
          this.logger.warn(
            `Catalog ${account.id} paused (${reason}); shops waiting: ${account.shops.join(', ')}`,
          );
          this.scheduleProbe(account);
        }
        if (to === 'closed') this.logger.log(`Catalog ${account.id} resumed`);
      }),
    );
    void this.probe(account);
  }

  onModuleDestroy(): void {
    this.stopped = true;
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
  }

  /** Null when the shop's catalog work may go; otherwise how long its jobs should wait (ms). */
  waitFor(shop: string): number | null {
    return this.pauseState(shop).paused ? this.settings.pauseRecheckMs : null;
  }

  /** Whether the shop's sync waits, and why (an operator's pause wins: it outlasts the breaker). */
  pauseState(shop: string): PauseState {
    const pause = this.pauses.pauseOf(shop);
    if (pause !== null) return { paused: true, by: 'operator', reason: pause.reason, since: pause.since };
    if (!this.clients.hasKey(shop)) {
      const problem = this.clients.keyProblem(shop);
      const reason =
        problem === null
          ? `no catalog API key yet (PUT /admin/shops/${shop}/catalog-key)`
          : `${problem} (set it again: PUT /admin/shops/${shop}/catalog-key)`;
      return { paused: true, by: 'catalog-key', reason, since: null };
    }
    const account = this.clients.forShop(shop);
    this.watch(account);
    const { breaker } = account.client;
    if (breaker.state === 'closed') return { paused: false, by: null, reason: null, since: null };
    const why = breaker.snapshot.reason === 'auth' ? 'catalog key refused' : 'catalog unavailable';
    return { paused: true, by: 'breaker', reason: `${why} (breaker ${breaker.state})`, since: null };
  }

  private scheduleProbe(account: CatalogAccount): void {
    if (this.probing.has(account.id) || this.stopped) return;
    this.probing.add(account.id);
    const retryAt = account.client.breaker.snapshot.retryAt ?? this.clock.now();
    void this.clock.sleep(Math.max(0, retryAt - this.clock.now())).then(() => {
      this.probing.delete(account.id);
      if (!this.stopped) return this.probe(account);
    });
  }

  /** One taxonomy read; its outcome moves the breaker (a failure re-opens it, and re-schedules). */
  private async probe(account: CatalogAccount): Promise<void> {
    try {
      await account.client.getTaxonomy({ priority: 'interactive' });
    } catch (error) {
      if (this.stopped) return;
      const code = (error as { code?: string }).code ?? 'error';
      this.logger.warn(`Catalog probe of ${account.id} failed (${code})`);
      if (account.client.breaker.state !== 'closed') this.scheduleProbe(account);
    }
  }
}
