import { Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { CatalogClients } from '../../clients/catalog/catalog-clients.service.js';
import { CatalogGate } from '../../clients/catalog/catalog-gate.service.js';
import { SharedCostBuckets } from '../../clients/shopify/shared-cost-buckets.repository.js';
import { InboxRepository } from '../../intake/inbox.repository.js';
import { ShopMappings } from '../../mapping/shop-mappings.service.js';
import { nextStep } from '../../platform/causes/causes.js';
import { EnrichmentSettings, OperationsSettings } from '../../platform/config/settings.js';
import { FailuresService } from '../../platform/failures/failures.service.js';
import { Readiness } from '../../platform/health/readiness.service.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { QueueStateWatch } from '../../platform/queues/queue-state-watch.service.js';
import { MappingGapsRepository } from '../../product-sync/gaps/mapping-gaps.repository.js';
import { ProductSyncStates } from '../../product-sync/product-sync-states.repository.js';
import { WriteBackStatus } from '../../write-back/write-back-status.service.js';
import { ShopEntries } from '../admin/shop-entries.service.js';
import { RunTimes } from '../runs/run-times.service.js';
import { catalogEvidence, EVIDENCE_MINUTES } from './catalog-evidence.js';
import type { ShopOverviewDto } from './overview.dto.js';
import { OverviewMinutes } from './overview-minutes.repository.js';
import { OverviewRecorder } from './overview-recorder.service.js';
import { type PlatformFacts, type ShopHealthFacts, shopHealth } from './shop-health.js';

/** The reasons of a shop's mapping gaps the overview names (the list page has all). */
const GAP_REASONS = 10;

/** Every shop's state, and the open failures by kind of all shops (the overview's figure). */
export interface ShopStates {
  shops: ShopOverviewDto[];
  openFailuresByKind: Record<string, number>;
  /** The highest poll lag of the shops polled (seconds since their last poll finished). */
  pollLagSeconds: number | null;
}

/**
 * Why: a shop's state needs facts from many owners at once: its session's auth state, an
 * operator's pause, the mapping check, the inbox's backlog (work waiting) and the deliveries held
 * by failures, the catalog breaker and its account's recent calls (every replica's, from
 * `overview_minutes`), the time since its last poll finished, its open failures by kind and
 * code, and the job queue as readiness measures it now. This gathers them and applies
 * `shopHealth`; each state that is not healthy gets its causes with their next steps (the
 * causes table, platform/causes).
 */
@Injectable()
export class ShopStatesService {
  constructor(
    private readonly entries: ShopEntries,
    private readonly gate: CatalogGate,
    private readonly catalogs: CatalogClients,
    private readonly mappings: ShopMappings,
    private readonly inbox: InboxRepository,
    private readonly failures: FailuresService,
    private readonly writeBack: WriteBackStatus,
    private readonly buckets: SharedCostBuckets,
    private readonly readiness: Readiness,
    private readonly queueWatch: QueueStateWatch,
    private readonly minutes: OverviewMinutes,
    private readonly recorder: OverviewRecorder,
    private readonly enrichment: EnrichmentSettings,
    private readonly operations: OperationsSettings,
    private readonly clock: Clock,
    private readonly gaps: MappingGapsRepository,
    private readonly syncStates: ProductSyncStates,
    private readonly runTimes: RunTimes,
  ) {}

  async states(): Promise<ShopStates> {
    // PostgreSQL holds every fact: without it no state can be told, and the answer says why.
    const measured = await this.readiness.measure();
    if (measured.errors.database !== null) throw databaseDown(measured.errors.database);
    const now = this.clock.now();
    // The probe may have passed on a connection the outage had not reached yet: a read that loses
    // its connection now is the same outage, answered the same way (never a 500).
    const read = async () => {
      // This process's catalog calls since its last write, so the catalog rules read them.
      await this.recorder.flush();
      const facts = await Promise.all([
        this.entries.all(),
        this.inbox.backlog(),
        this.failures.openCountsByCode(),
        this.writeBack.pollLags(),
        this.buckets.use(now),
        this.minutes.accountSeriesSince(new Date(now - EVIDENCE_MINUTES * 60_000)),
        this.gaps.summaries(GAP_REASONS),
        this.syncStates.knownProducts(),
      ]);
      return [facts, await this.runTimes.of(facts[0].map((entry) => entry.shop))] as const;
    };
    const [[entries, backlog, open, lags, use, calls, gapSummaries, known], runs] = await read().catch(
      (error: unknown) => {
        throw overviewReadError(error);
      },
    );
    const gapsOf = new Map(gapSummaries.map((summary) => [summary.shop, summary]));
    const loss = this.queueWatch.lastStateLoss();
    const platform: PlatformFacts = {
      queueProblem: measured.checks.queue === 'down' ? (measured.errors.queue ?? 'no answer') : null,
      queueStateLostSecondsAgo: loss === null ? null : Math.max(0, (now - Date.parse(loss.at)) / 1000),
    };
    const waiting = new Map(backlog.map((row) => [row.shop, row]));
    const openFailuresByKind: Record<string, number> = {};
    for (const row of open)
      openFailuresByKind[row.jobKind] = (openFailuresByKind[row.jobKind] ?? 0) + row.count;
    const shops = entries
      .filter((entry) => entry.source !== 'gone')
      .map((entry): ShopOverviewDto => {
        const kinds: Record<string, number> = {};
        const codes: Record<string, number> = {};
        for (const row of open.filter((r) => r.shop === entry.shop)) {
          kinds[row.jobKind] = (kinds[row.jobKind] ?? 0) + row.count;
          codes[row.errorCode] = (codes[row.errorCode] ?? 0) + row.count;
        }
        const pause = this.gate.pauseState(entry.shop);
        const mapping = this.mappings.state(entry.shop);
        const queued = waiting.get(entry.shop);
        const account = this.catalogs.hasKey(entry.shop) ? this.catalogs.forShop(entry.shop) : null;
        const breaker = account?.client.breaker.state ?? 'closed';
        const facts: ShopHealthFacts = {
          authState: entry.state,
          authReason: entry.stateReason,
          operatorPause: pause.by === 'operator' ? pause.reason : null,
          mappingProblem: mapping.status === 'invalid' ? mapping.error.message : null,
          catalogKeyProblem: entry.catalogKeyProblem,
          backlog: queued?.waiting ?? 0,
          backlogAgeSeconds: queued?.oldest ? Math.max(0, (now - queued.oldest.getTime()) / 1000) : null,
          backlogFailingSeconds: this.operations.backlogFailingMs / 1000,
          heldByFailures: queued?.held ?? 0,
          breaker,
          catalog: account === null ? null : catalogEvidence(calls, account.id),
          pollLagSeconds: lags.get(entry.shop) ?? null,
          pollIntervalSeconds: this.enrichment.pollIntervalMs / 1000,
          openFailures: kinds,
          openFailureCodes: codes,
          platform,
          mappingGaps: {
            products: gapsOf.get(entry.shop)?.products ?? 0,
            knownProducts: known.get(entry.shop) ?? 0,
            degradedShare: this.operations.mappingGapDegradedShare,
            topReason: gapsOf.get(entry.shop)?.reasons[0] ?? null,
            reasonCount: gapsOf.get(entry.shop)?.reasonCount ?? 0,
          },
        };
        const gaps = facts.mappingGaps ?? { products: 0, knownProducts: 0, reasonCount: 0 };
        const knownProducts = Math.max(gaps.knownProducts, gaps.products);
        const health = shopHealth(facts);
        const causes = health.causes.map((cause) => ({ ...cause, next: nextStep(cause.code, entry.shop) }));
        return {
          shop: entry.shop,
          state: health.state,
          reasons: health.reasons,
          cause: causes[0] ? { code: causes[0].code, text: causes[0].text } : null,
          next: causes[0]?.next ?? null,
          causes,
          authState: entry.state,
          mode: entry.mode,
          backlog: facts.backlog,
          backlogAgeSeconds: facts.backlogAgeSeconds,
          heldByFailures: facts.heldByFailures,
          breaker,
          pollLagSeconds: facts.pollLagSeconds,
          costBucketUse: use.get(entry.shop) ?? null,
          openFailures: kinds,
          mappingGaps: {
            products: gaps.products,
            knownProducts,
            share: knownProducts === 0 ? 0 : gaps.products / knownProducts,
            reasons: gapsOf.get(entry.shop)?.reasons ?? [],
            reasonCount: gaps.reasonCount,
          },
          runs: runs.get(entry.shop) ?? null,
        };
      });
    const polled = shops.map((s) => s.pollLagSeconds).filter((lag): lag is number => lag !== null);
    return { shops, openFailuresByKind, pollLagSeconds: polled.length === 0 ? null : Math.max(...polled) };
  }
}

/**
 * What an overview read that failed answers: a lost PostgreSQL connection is the outage's 503
 * `storage_unavailable` (never a 500), whichever of the overview's reads lost it; anything else
 * as it is.
 */
export function overviewReadError(error: unknown): unknown {
  if (error instanceof ConnectorError || !lostConnection(error)) return error;
  return databaseDown(error instanceof Error ? error.message : String(error));
}

/** A database error that says the connection went or never came (not a bad statement). */
function lostConnection(error: unknown): boolean {
  const text =
    error instanceof Error ? `${error.message} ${(error as { code?: string }).code ?? ''}` : String(error);
  return /ECONNRESET|ECONNREFUSED|ETIMEDOUT|EPIPE|Connection terminated|connection timeout|timeout exceeded when trying to connect|too many clients|remaining connection slots/i.test(
    text,
  );
}

/** The overview's answer without PostgreSQL: 503 `storage_unavailable` (its hint: the next step), the cause in words. */
function databaseDown(error: string): ConnectorError {
  const full = /too many clients|remaining connection slots/i.test(error);
  return new ConnectorError(
    ConnectorErrorCode.STORAGE_UNAVAILABLE,
    `${full ? 'PostgreSQL has no connection left (too many clients)' : 'PostgreSQL does not answer'}: the shops' states cannot be read (${error}).`,
    { cause: full ? 'database_out_of_connections' : 'database_unavailable' },
    { 'Retry-After': '5' },
  );
}
