import { Injectable, type OnModuleInit } from '@nestjs/common';
import { RetentionSettings } from '../platform/config/settings.js';
import { RetentionRegistry } from '../platform/reporting/retention-registry.service.js';
import { EnrichmentOutbox } from './store/enrichment-outbox.repository.js';
import { EnrichmentPollRuns } from './store/enrichment-poll-runs.repository.js';
import { WriteBackStates } from './store/write-back-states.repository.js';

/**
 * Why: the push history, finished polls and done outbox rows grow with every poll; the write-back
 * registers its own tables with the retention job (`CONNECTOR_RETENTION_PUSH_HISTORY_DAYS`,
 * `..._ENRICHMENT_RUNS_DAYS`).
 */
@Injectable()
export class WriteBackRetention implements OnModuleInit {
  constructor(
    private readonly retention: RetentionRegistry,
    private readonly outbox: EnrichmentOutbox,
    private readonly runs: EnrichmentPollRuns,
    private readonly states: WriteBackStates,
    private readonly settings: RetentionSettings,
  ) {}

  onModuleInit(): void {
    const { pushHistoryMs, enrichmentRunsMs } = this.settings;
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
