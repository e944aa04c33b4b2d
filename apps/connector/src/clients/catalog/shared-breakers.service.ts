import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { CircuitBreaker, SharedBreakerState } from '#lib/catalog-client';
import { Clock } from '#lib/clock';
import { OperationsSettings } from '../../platform/config/settings.js';
import {
  CatalogBreakerRepository,
  type ProbeClaim,
  type SharedBreakerRecord,
} from './catalog-breaker.repository.js';

/**
 * How long a replica holds an account's probe once claimed: longer than the probe (one taxonomy
 * read, 30 s time-out) can take. Its verdict frees it sooner; a replica that died holding it only
 * delays the next probe by this.
 */
const PROBE_LEASE_MS = 120_000;

/** An account's breaker in this process, and what this process knows of its shared row. */
interface Tracked {
  breaker: CircuitBreaker;
  /** The generation of the shared row last applied (or written) here. */
  seen: number;
  /** This process's own changes not yet stored: the shared rows read meanwhile are older. */
  pending: number;
}

/**
 * Makes each catalog account's breaker one for every replica, through `catalog_breakers`: a
 * replica's own opening (a refused key, the catalog down) or closing (its probe succeeded) is
 * stored at once, and every replica reads the rows every `CONNECTOR_SYNC_PAUSE_REFRESH_MS` and
 * adopts the newer ones, so the account's shops wait on every replica without each spending its
 * own calls to learn it, and resume on every replica after one probe. The probe is claimed
 * (`claimProbe`): one per cool-down between the replicas. A failed read keeps what is known; a
 * failed write leaves this replica's breaker its own until the next change.
 */
@Injectable()
export class SharedBreakers implements OnModuleDestroy {
  private readonly logger = new Logger('SharedBreakers');
  private readonly tracked = new Map<string, Tracked>();
  private readonly unsubscribes: Array<() => void> = [];
  private known = new Map<string, SharedBreakerRecord>();
  private writes: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly repository: CatalogBreakerRepository,
    private readonly clock: Clock,
    private readonly settings: OperationsSettings,
  ) {}

  /** Reads the shared breakers once (a breaker tracked after adopts its row at once), then on a timer. */
  async start(): Promise<void> {
    if (this.timer !== undefined || this.stopped) return;
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.settings.pauseRefreshMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
    await this.writes;
  }

  /** Shares the account's breaker: adopts what the replicas know of it, publishes its own changes. */
  track(account: string, breaker: CircuitBreaker): void {
    if (this.tracked.has(account) || this.stopped) return;
    const entry: Tracked = { breaker, seen: 0, pending: 0 };
    this.tracked.set(account, entry);
    const known = this.known.get(account);
    if (known) this.apply(entry, known);
    this.unsubscribes.push(
      breaker.onStateChange(({ from, to, shared }) => {
        // Half-open is this replica's probe under way: the others keep the account open meanwhile.
        if (shared || to === 'half-open') return;
        this.publish(account, entry, breaker.shared, from === 'half-open');
      }),
    );
  }

  /** Reads every account's shared breaker and adopts the newer ones (a failed read keeps what is known). */
  async refresh(): Promise<void> {
    let records: SharedBreakerRecord[];
    try {
      records = await this.repository.all();
    } catch (error) {
      if (!this.stopped)
        this.logger.warn(`Could not read the shared catalog breakers: ${(error as Error).message}`);
      return;
    }
    this.known = new Map(records.map((record) => [record.account, record]));
    for (const [account, entry] of this.tracked) {
      const record = this.known.get(account);
      if (record && entry.pending === 0) this.apply(entry, record);
    }
  }

  /**
   * Whether this replica sends the account's probe now (the one of this cool-down), or when to
   * ask again. PostgreSQL not answering: granted (a probe too many beats a breaker never closed).
   */
  async claimProbe(account: string): Promise<ProbeClaim> {
    try {
      return await this.repository.claimProbe(account, this.clock.now(), PROBE_LEASE_MS);
    } catch (error) {
      this.logger.warn(
        `Could not claim the probe of ${account} (probing anyway): ${(error as Error).message}`,
      );
      return { granted: true };
    }
  }

  /** Resolves once this process's changes so far are stored (or failed). */
  settled(): Promise<void> {
    return this.writes;
  }

  private publish(account: string, entry: Tracked, state: SharedBreakerState, afterProbe: boolean): void {
    if (this.stopped) return;
    entry.pending += 1;
    this.writes = this.writes.then(async () => {
      try {
        const record =
          state.state === 'open'
            ? await this.repository.open(account, state, afterProbe)
            : await this.repository.close(account);
        // The stored row, unless a later change of this process's is still to be stored.
        if (record && entry.pending === 1) this.apply(entry, record);
      } catch (error) {
        this.logger.warn(
          `Could not share the ${state.state === 'open' ? 'opening' : 'closing'} of ${account}'s breaker: ${(error as Error).message}`,
        );
      } finally {
        entry.pending -= 1;
      }
    });
  }

  /** Adopts a row newer than the last one seen; a probe under way here decides for itself. */
  private apply(entry: Tracked, record: SharedBreakerRecord): void {
    if (record.generation <= entry.seen) return;
    entry.seen = record.generation;
    const local = entry.breaker.state;
    if (record.state.state === 'closed' ? local === 'closed' : local === 'half-open') return;
    entry.breaker.adopt(record.state);
  }
}
