import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { CONNECTOR_CONFIG } from '../connector.tokens.js';
import type { ConnectorConfig } from '../platform/config/connector.config.js';
import { RetentionRegistry } from '../platform/database/retention-registry.js';
import type { WriteBackEntry } from '../platform/health/operations-seams.js';
import { OperationsSeams } from '../platform/health/operations-seams.js';
import { EnrichmentOutbox } from './store/enrichment-outbox.repository.js';
import { EnrichmentPollRuns } from './store/enrichment-poll-runs.repository.js';
import type { WriteBackPushRow } from './store/write-back-push.entity.js';
import { WriteBackStates } from './store/write-back-states.repository.js';

/**
 * Plugs the write-back into operations from this side (nothing may import operations): the
 * poll's checkpoint, lag and watchlist size for the queue view, the push history for product
 * status and the product timeline, and the retention of the push history, finished polls and
 * done outbox rows (`CONNECTOR_RETENTION_PUSH_HISTORY_DAYS`, `..._ENRICHMENT_RUNS_DAYS`).
 */
@Injectable()
export class EnrichmentOperationsHooks implements OnModuleInit {
  constructor(
    private readonly seams: OperationsSeams,
    private readonly retention: RetentionRegistry,
    private readonly outbox: EnrichmentOutbox,
    private readonly runs: EnrichmentPollRuns,
    private readonly states: WriteBackStates,
    private readonly clock: Clock,
    @Inject(CONNECTOR_CONFIG) private readonly config: ConnectorConfig,
  ) {}

  onModuleInit(): void {
    const shops = this.config.shops.map((shop) => shop.domain);
    this.seams.provideEnrichmentStatus({
      status: async () => {
        const { checkpoint, watched } = await this.outbox.progress(shops);
        return {
          checkpoint: checkpoint === null ? null : new Date(checkpoint).toISOString(),
          lagSeconds: checkpoint === null ? null : Math.max(0, (this.clock.now() - checkpoint) / 1000),
          watchlistSize: watched,
        };
      },
    });
    this.seams.provideWriteBackHistory({
      history: async (shop, productId, limit) =>
        (await this.states.recent(shop, productId, limit)).map(toEntry),
    });
    this.seams.addTimelineSource({
      name: 'write_backs',
      events: async (shop, productId, limit) =>
        (await this.states.recent(shop, productId, limit)).map((row) => ({
          at: row.at.toISOString(),
          kind: 'write-back',
          summary: `${row.purpose} ${row.attribute} → ${row.targetKey}: ${row.result}`,
          details: detailsOf(row),
        })),
    });
    const { pushHistoryMs, enrichmentRunsMs } = this.config.retention;
    this.retention.register({
      name: 'write_back_push',
      ageMs: pushHistoryMs,
      prune: (before) => this.states.pruneHistory(before),
    });
    this.retention.register({
      name: 'enrichment_poll_run',
      ageMs: enrichmentRunsMs,
      prune: (before) => this.runs.prune(before),
    });
    this.retention.register({
      name: 'enrichment_outbox',
      ageMs: enrichmentRunsMs,
      prune: (before) => this.outbox.prune(before),
    });
  }
}

/** One push history row as product status shows it: `field` is the Shopify target. */
function toEntry(row: WriteBackPushRow): WriteBackEntry {
  return {
    at: row.at.toISOString(),
    field: row.targetKey,
    outcome: row.result,
    conflict: row.result === 'conflict',
    details: detailsOf(row),
  };
}

function detailsOf(row: WriteBackPushRow): Record<string, unknown> {
  return {
    attribute: row.attribute,
    target: row.targetKey,
    owner: row.ownerId,
    purpose: row.purpose,
    valueHash: row.valueHash,
    ...(row.errors.length > 0 ? { errors: row.errors } : {}),
  };
}
