import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { CatalogSettings } from '../../platform/config/settings.js';
import { type CatalogAccount, CatalogClients } from './catalog-clients.service.js';
import { SharedBreakers } from './shared-breakers.service.js';
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
 * An account's breaker is one for every replica (`SharedBreakers`): opened on one, its shops
 * wait on all; the replica that claims the probe when the cool-down ends sends it (one per
 * cool-down between them, no scheduled job), and its success closes the breaker on all. Each
 * account is probed once when this process first uses it (the boot check, unless the replicas
 * already know it open), so a revoked key pauses its shops before any job runs.
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
    private readonly shared: SharedBreakers,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.shared.start();
    this.unsubscribes.push(this.clients.onAccount((account) => this.watch(account)));
  }

  /** Shares and follows the account's breaker (each account once, as it is made). */
  private watch(account: CatalogAccount): void {
    if (this.watched.has(account.id) || this.stopped) return;
    this.watched.add(account.id);
    const { breaker } = account.client;
    this.shared.track(account.id, breaker);
    this.unsubscribes.push(
      breaker.onStateChange(({ from, to, reason, shared }) => {
        if (to === 'open') {
          if (from === 'closed') {
            this.logger.warn(
              `Catalog ${account.id} paused (${reason}${shared ? ', seen by another replica' : ''}); shops waiting: ${account.shops.join(', ')}`,
            );
          }
          this.scheduleProbe(account, breaker.snapshot.retryAt);
        }
        if (to === 'closed') this.logger.log(`Catalog ${account.id} resumed`);
      }),
    );
    if (breaker.state === 'closed') void this.probe(account);
    else this.scheduleProbe(account, breaker.snapshot.retryAt);
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
    const { breaker } = this.clients.forShop(shop).client;
    if (breaker.state === 'closed') return { paused: false, by: null, reason: null, since: null };
    const why = breaker.snapshot.reason === 'auth' ? 'catalog key refused' : 'catalog unavailable';
    return { paused: true, by: 'breaker', reason: `${why} (breaker ${breaker.state})`, since: null };
  }

  /** Tries to probe at `at` (epoch ms; now when null), once per account at a time. */
  private scheduleProbe(account: CatalogAccount, at: number | null): void {
    if (this.probing.has(account.id) || this.stopped) return;
    this.probing.add(account.id);
    const wait = Math.max(0, (at ?? this.clock.now()) - this.clock.now());
    void this.clock.sleep(wait).then(() => {
      this.probing.delete(account.id);
      if (!this.stopped) return this.claimAndProbe(account);
    });
  }

  /**
   * Probes if this replica wins the probe of this cool-down; else asks again when the winner's
   * hold or the cool-down the replicas share ends (its verdict reaches this replica meanwhile).
   */
  private async claimAndProbe(account: CatalogAccount): Promise<void> {
    const { breaker } = account.client;
    if (breaker.state === 'open') {
      const claim = await this.shared.claimProbe(account.id);
      if (this.stopped || breaker.state !== 'open') return;
      if (!claim.granted) {
        this.scheduleProbe(account, claim.nextAt);
        return;
      }
      // Synchronously before the call: this call is the probe the breaker lets go.
      breaker.allowProbe();
    }
    // Half-open: a probe is out (its verdict moves the breaker), or it ended without one (this is it).
    if (breaker.state !== 'closed') await this.probe(account);
  }

  /** One taxonomy read; its outcome moves the breaker (a failure re-opens it, and re-schedules). */
  private async probe(account: CatalogAccount): Promise<void> {
    try {
      await account.client.getTaxonomy({ priority: 'interactive' });
    } catch (error) {
      if (this.stopped) return;
      const code = (error as { code?: string }).code ?? 'error';
      this.logger.warn(`Catalog probe of ${account.id} failed (${code})`);
      // Re-opened: scheduled for its new cool-down already. Otherwise (no verdict) ask again later.
      if (account.client.breaker.state !== 'closed')
        this.scheduleProbe(account, this.clock.now() + this.settings.pauseRecheckMs);
    }
  }
}
