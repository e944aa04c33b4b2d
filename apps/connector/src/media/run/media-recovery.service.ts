import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { MediaSettings } from '../../platform/config/settings.js';
import { QueueRecoveryRegistry } from '../../platform/queues/queue-recovery-registry.service.js';
import { MediaStatusRepository } from '../store/media-status.repository.js';
import { MediaEnqueuer } from './media-enqueuer.service.js';

/** How far back a product's sync counts as possibly waiting for its media run. */
const LOOKBACK_MS = 24 * 3_600_000;

/**
 * The media stage's part of repairing a queue backend that lost its data: every product synced
 * (in the last day) after its last media run, or never media-run, gets its run again. A run that
 * finds nothing changed uploads and writes nothing.
 */
@Injectable()
export class MediaRecovery implements OnModuleInit {
  constructor(
    private readonly registry: QueueRecoveryRegistry,
    private readonly enqueuer: MediaEnqueuer,
    private readonly statuses: MediaStatusRepository,
    private readonly settings: MediaSettings,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    if (!this.settings.enabled) return;
    this.registry.work({ name: 'media', requeue: () => this.requeue() });
  }

  /** Enqueues the media run of every product synced since its last one; resolves to how many. */
  async requeue(): Promise<number> {
    const products = await this.statuses.syncedSinceLastRun(new Date(this.clock.now() - LOOKBACK_MS));
    // Recovered work waits in the bulk lane: the edits made since go first.
    for (const product of products) await this.enqueuer.enqueue({ ...product, reason: 'synced' }, 'bulk');
    return products.length;
  }
}
