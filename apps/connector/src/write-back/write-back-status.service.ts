import { Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { Shops } from '../shops/shops.js';
import { EnrichmentOutbox } from './store/enrichment-outbox.repository.js';
import type { WriteBackPushRow } from './store/write-back-push.entity.js';
import { WriteBackStates } from './store/write-back-states.repository.js';

/** The poll's progress, as the queue and budget view shows it (null: not known yet). */
export interface EnrichmentStatus {
  /** The poll's checkpoint (ISO 8601): the newest enrichment it has seen; null before any. */
  checkpoint: string | null;
  /**
   * Seconds since the last poll that finished its work, of the shop polled least recently
   * (null before any poll finished). Not the checkpoint's age: a quiet catalog enriches nothing,
   * and its polls are on time all the same.
   */
  lagSeconds: number | null;
  /** When that poll finished (ISO 8601), or null. */
  polledAt: string | null;
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
    const { checkpoint, watched, polled } = await this.outbox.progress(this.shops.all.map((s) => s.domain));
    const oldest = polled.size === 0 ? null : Math.min(...polled.values());
    return {
      checkpoint: checkpoint === null ? null : new Date(checkpoint).toISOString(),
      lagSeconds: oldest === null ? null : this.secondsSince(oldest),
      polledAt: oldest === null ? null : new Date(oldest).toISOString(),
      watchlistSize: watched,
    };
  }

  /**
   * Per shop, seconds since its last poll that finished its work (the overview's poll lag rule);
   * shops never polled (no write-back entries, or none finished yet) are absent.
   */
  async pollLags(): Promise<Map<string, number>> {
    const { polled } = await this.outbox.progress(this.shops.all.map((s) => s.domain));
    return new Map([...polled].map(([shop, at]) => [shop, this.secondsSince(at)]));
  }

  private secondsSince(at: number): number {
    return Math.max(0, (this.clock.now() - at) / 1000);
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
