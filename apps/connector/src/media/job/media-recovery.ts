import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { Clock } from '#lib/clock';
import type { ConnectorConfig } from '../../config/connector.config.js';
import { CONNECTOR_CONFIG } from '../../connector.tokens.js';
import { QueueRecoveryRegistry } from '../../queues/queue-recovery-registry.js';
import { MediaProductStatusEntity } from '../store/media-product-status.entity.js';
import { MediaEnqueuer } from './media-enqueuer.js';

/** How far back a product's sync counts as possibly waiting for its media run. */
const LOOKBACK_MS = 24 * 3_600_000;

/**
 * The media stage's part of repairing a queue backend that lost its data. A media run is only
 * asked for in the queue, so PostgreSQL's trace of it is the product's sync: every product
 * synced (in the last day) after its last media run, or never media-run, gets its run again.
 * A run that finds nothing changed uploads and writes nothing.
 */
@Injectable()
export class MediaRecovery implements OnModuleInit {
  constructor(
    private readonly registry: QueueRecoveryRegistry,
    private readonly enqueuer: MediaEnqueuer,
    @InjectRepository(MediaProductStatusEntity)
    private readonly statuses: Repository<MediaProductStatusEntity>,
    @Inject(CONNECTOR_CONFIG) private readonly config: ConnectorConfig,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    if (!this.config.media.enabled) return;
    this.registry.work({ name: 'media', requeue: () => this.requeue() });
  }

  /** Enqueues the media run of every product synced since its last one; resolves to how many. */
  async requeue(): Promise<number> {
    const statuses = this.statuses.metadata.tablePath;
    const records = statuses.replace(/media_product_status$/, 'sync_records');
    const rows: Array<{ shop: string; product_id: string }> = await this.statuses.query(
      `SELECT DISTINCT s.shop, s.product_id::text AS product_id
         FROM ${records} s
        WHERE s.outcome = 'synced' AND s.finished_at > $1
          AND NOT EXISTS (
            SELECT 1 FROM ${statuses} m
             WHERE m.shop = s.shop AND m.shopify_product_id = s.product_id AND m.last_run_at >= s.finished_at)`,
      [new Date(this.clock.now() - LOOKBACK_MS)],
    );
    for (const row of rows) {
      await this.enqueuer.enqueue({ shop: row.shop, productId: row.product_id, reason: 'synced' });
    }
    return rows.length;
  }
}
