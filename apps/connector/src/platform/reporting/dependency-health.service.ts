import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { ConcurrencyLimit } from '../boot/concurrency-limit.js';
import { OperationsSettings } from '../config/settings.js';

/** A dependency's state as last checked. */
export interface DependencyReport {
  /** `up`; `degraded` (answers, but e.g. a breaker is open); `down`; `unknown` before a check. */
  status: 'up' | 'degraded' | 'down' | 'unknown';
  /** ISO 8601 of the check, null before the first one. */
  checkedAt: string | null;
  details: Record<string, unknown>;
}

/** A registered check: `run` may take its time; it is never run on a request's path. */
export interface DependencyCheck {
  /** e.g. `catalog:http://...#abcd1234`, `shopify:acme.myshopify.com`. */
  name: string;
  run(): Promise<Omit<DependencyReport, 'checkedAt'>>;
}

const CHECK_TIMEOUT_MS = 5_000;

/**
 * The catalog's and Shopify's state for operators (`/health` details, metrics), checked on a
 * schedule and cached: a scrape or a health call never triggers a probe, so probes cannot spend
 * the catalog's budget. Nothing here feeds readiness: an outage of either never makes a replica
 * unready (intake needs only PostgreSQL and the queue).
 */
@Injectable()
export class DependencyHealth implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('DependencyHealth');
  private readonly checks: DependencyCheck[] = [];
  private readonly reports = new Map<string, DependencyReport>();
  private timer: NodeJS.Timeout | undefined;
  private intervalMs = 60_000;
  private running = false;
  /** At most `CONNECTOR_SHOP_CHECK_CONCURRENCY` checks at once (200 shops and accounts: 400 checks). */
  private readonly limit: ConcurrencyLimit;

  constructor(
    private readonly clock: Clock,
    operations: OperationsSettings,
  ) {
    this.limit = new ConcurrencyLimit(operations.shopCheckConcurrency);
  }

  /** Called by operations at module init, before the first round. */
  register(check: DependencyCheck): void {
    this.checks.push(check);
    this.reports.set(check.name, { status: 'unknown', checkedAt: null, details: {} });
  }

  /** How often to check; the default is a minute. */
  every(intervalMs: number): void {
    this.intervalMs = intervalMs;
  }

  onApplicationBootstrap(): void {
    void this.checkAll();
    this.timer = setInterval(() => void this.checkAll(), this.intervalMs);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /**
   * Sets a dependency's report now, for a part that watches its dependency itself (the queue's
   * state watch) instead of registering a check.
   */
  publish(name: string, report: Omit<DependencyReport, 'checkedAt'>): void {
    this.reports.set(name, { ...report, checkedAt: new Date(this.clock.now()).toISOString() });
  }

  /**
   * A fresh measurement of a dependency (readiness's probe of the queue, made for the request
   * at hand) replaces its cached report when the two disagree, keeping the cached details (an
   * `error` given, or none when it is up): one answer never says both `down` and `up`.
   */
  confirm(name: string, status: 'up' | 'down', error: string | null): void {
    const cached = this.reports.get(name);
    if (cached === undefined) return;
    const agrees =
      status === 'down' ? cached.status === 'down' : cached.status === 'up' || cached.status === 'degraded';
    if (agrees) return;
    const { error: _before, ...details } = cached.details;
    this.reports.set(name, {
      status,
      checkedAt: new Date(this.clock.now()).toISOString(),
      details: status === 'down' && error !== null ? { ...details, error } : details,
    });
  }

  /** The cached reports, by dependency name. */
  snapshot(): Record<string, DependencyReport> {
    return Object.fromEntries(this.reports);
  }

  /** One round now (tests, and the schedule); a round already running is not doubled. */
  async checkAll(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await Promise.all(this.checks.map((check) => this.limit.run(() => this.checkOne(check))));
    } finally {
      this.running = false;
    }
  }

  private async checkOne(check: DependencyCheck): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('check timed out')), CHECK_TIMEOUT_MS);
    });
    let report: Omit<DependencyReport, 'checkedAt'>;
    try {
      report = await Promise.race([check.run(), timeout]);
    } catch (error) {
      report = { status: 'down', details: { error: error instanceof Error ? error.message : String(error) } };
    } finally {
      clearTimeout(timer);
    }
    const before = this.reports.get(check.name)?.status;
    if (before !== undefined && before !== 'unknown' && before !== report.status) {
      this.logger.warn(`Dependency ${check.name}: ${before} -> ${report.status}`);
    }
    this.reports.set(check.name, { ...report, checkedAt: new Date(this.clock.now()).toISOString() });
  }
}
