import { Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { Shops } from '../shops/shops.js';
import { EnrichmentOutbox } from './store/enrichment-outbox.repository.js';
import type { WriteBackPushRow } from './store/write-back-push.entity.js';
import { WriteBackStates } from './store/write-back-states.repository.js';

/** The poll's progress, as the queue and budget view shows it (null: not known yet). */
export interface EnrichmentStatus {
  /** The poll's checkpoint (ISO 8601), or null before the first poll. */
  checkpoint: string | null;
  /** Seconds between now and the checkpoint. */
  lagSeconds: number | null;
  /** Catalog records watched for approved content. */
  watchlistSize: number | null;
}

/** One write-back of a product, as product status and its timeline show it. */
export interface WriteBackEntry {
  at: string;
  /** The Shopify target (`seo.title`, a metafield, ...). */
  field: string;
  outcome: string;
  conflict: boolean;
  /** The catalog attribute, the owner (product or variant gid), the purpose (`push`, `retract`, `conflict`, ...). */
  details: { attribute: string; target: string; owner: string; purpose: string; [key: string]: unknown };
}

/**
 * Why: what operators see of the write-back (the admin API's queue view, product status and
 * timeline read it directly): the poll's checkpoint and lag, the watchlist, a product's pushes.
 */
@Injectable()
export class WriteBackStatus {
  constructor(
    private readonly outbox: EnrichmentOutbox,
    private readonly states: WriteBackStates,
    private readonly shops: Shops,
    private readonly clock: Clock,
  ) {}

  async enrichmentStatus(): Promise<EnrichmentStatus> {
    const { checkpoint, watched } = await this.outbox.progress(this.shops.all.map((shop) => shop.domain));
    return {
      checkpoint: checkpoint === null ? null : new Date(checkpoint).toISOString(),
      lagSeconds: checkpoint === null ? null : Math.max(0, (this.clock.now() - checkpoint) / 1000),
      watchlistSize: watched,
    };
  }

  /** A product's write-backs, latest first. */
  async history(shop: string, productId: string, limit: number): Promise<WriteBackEntry[]> {
    return (await this.states.recent(shop, productId, limit)).map(toEntry);
  }
}

function toEntry(row: WriteBackPushRow): WriteBackEntry {
  return {
    at: row.at.toISOString(),
    field: row.targetKey,
    outcome: row.result,
    conflict: row.result === 'conflict',
    details: {
      attribute: row.attribute,
      target: row.targetKey,
      owner: row.ownerId,
      purpose: row.purpose,
      valueHash: row.valueHash,
      ...(row.errors.length > 0 ? { errors: row.errors } : {}),
    },
  };
}
