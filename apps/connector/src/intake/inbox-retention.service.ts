import { Injectable, type OnModuleInit } from '@nestjs/common';
import { RetentionSettings } from '../platform/config/settings.js';
import { RetentionRegistry } from '../platform/reporting/retention-registry.service.js';
import { InboxRepository } from './inbox.repository.js';

/**
 * Why: every delivery is stored before it is answered, so the inbox grows with every webhook.
 * Intake registers its own table with the retention job: handled deliveries older than
 * `CONNECTOR_RETENTION_INBOX_DAYS` go; one still `received` never does.
 */
@Injectable()
export class InboxRetention implements OnModuleInit {
  constructor(
    private readonly registry: RetentionRegistry,
    private readonly inbox: InboxRepository,
    private readonly settings: RetentionSettings,
  ) {}

  onModuleInit(): void {
    this.registry.register({
      name: 'inbox',
      ageMs: this.settings.inboxMs,
      prune: (before) => this.inbox.pruneHandledBefore(before),
    });
  }
}
