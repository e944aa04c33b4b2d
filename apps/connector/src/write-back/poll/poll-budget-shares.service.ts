import { Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { CatalogClients } from '../../clients/catalog/catalog-clients.service.js';
import { CatalogSettings, EnrichmentSettings } from '../../platform/config/settings.js';
import { EnrichmentPollRuns } from '../store/enrichment-poll-runs.repository.js';
import { type AccountPollShare, pollBudgetShares } from './poll-budget-shares.js';

/** The enrichment poll's share of every account's catalog budget over a window. */
export interface PollBudgetView {
  /** Where the window starts: the time asked for, or the oldest poll kept when later. */
  from: Date;
  to: Date;
  windowSeconds: number;
  /** Each account's budget, calls per second. */
  ratePerSecond: number;
  /** `CONNECTOR_ENRICHMENT_POLL_BUDGET_SHARE`. */
  bound: number;
  /** Early polls are on (`CONNECTOR_ENRICHMENT_POLL_ACTIVE_INTERVAL_MS` below the poll interval, a share above 0). */
  earlyPolls: boolean;
  accounts: AccountPollShare[];
}

/**
 * Why: the poll's share of each account's budget, from the poll runs every replica stores (each
 * shop's calls per poll), for the catalog calls page and `GET /admin/enrichment/poll-budget`.
 * The window starts at the time asked for, or at the oldest poll kept when that is later (a
 * connector started 10 minutes ago has polled for 10 minutes, not for the hour asked for).
 */
@Injectable()
export class PollBudgetShares {
  constructor(
    private readonly runs: EnrichmentPollRuns,
    private readonly clients: CatalogClients,
    private readonly catalog: CatalogSettings,
    private readonly settings: EnrichmentSettings,
    private readonly clock: Clock,
  ) {}

  /** Every account's poll share since `since` (until now). */
  async since(since: Date): Promise<PollBudgetView> {
    const now = this.clock.now();
    const { rows, oldest } = await this.runs.callsSince(since);
    const fromMs = Math.min(now, Math.max(since.getTime(), oldest?.getTime() ?? now));
    const { activePollIntervalMs, pollIntervalMs, pollBudgetShare } = this.settings;
    // To a tenth of a second: the page and the answer show it, and the budget is worked out from it.
    const windowSeconds = Math.round((now - fromMs) / 100) / 10;
    return {
      from: new Date(fromMs),
      to: new Date(now),
      windowSeconds,
      ratePerSecond: this.catalog.ratePerSecond,
      bound: pollBudgetShare,
      earlyPolls: activePollIntervalMs < pollIntervalMs && pollBudgetShare > 0,
      accounts: pollBudgetShares({
        rows,
        accounts: this.clients.all(),
        windowSeconds,
        ratePerSecond: this.catalog.ratePerSecond,
        bound: pollBudgetShare,
      }),
    };
  }
}
