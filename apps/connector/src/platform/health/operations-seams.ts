import { Injectable } from '@nestjs/common';

/** The enrichment stage's progress, as the queue and budget view shows it (null: not known). */
export interface EnrichmentStatus {
  /** The poll's checkpoint (ISO 8601), or null before the first poll. */
  checkpoint: string | null;
  /** Seconds between now and the checkpoint. */
  lagSeconds: number | null;
  /** Catalog records watched for approved content. */
  watchlistSize: number | null;
}

/** Implemented by the enrichment stage (registered at module init). */
export interface EnrichmentStatusSource {
  status(): Promise<EnrichmentStatus>;
}

/** One line of a product's timeline in the operators' view. */
export interface TimelineEvent {
  /** ISO 8601. */
  at: string;
  /** `webhook`, `job`, `failure`, `sync`, `write-back`, ... */
  kind: string;
  summary: string;
  details?: Record<string, unknown>;
}

/** A source of timeline events for one product (the sync records, the write-back history). */
export interface ProductTimelineSource {
  name: string;
  events(shop: string, productId: string, limit: number): Promise<TimelineEvent[]>;
}

/** One write-back of a product, as product status shows it. */
export interface WriteBackEntry {
  at: string;
  field: string;
  outcome: string;
  conflict: boolean;
  details?: Record<string, unknown>;
}

/** Implemented by the write-back stage: a product's write-backs, latest first. */
export interface WriteBackHistorySource {
  history(shop: string, productId: string, limit: number): Promise<WriteBackEntry[]>;
}

/**
 * Where later stages plug what operators see into the admin API without the admin importing
 * them the other way round (nothing may import operations): the enrichment status, product
 * timeline sources, the write-back history. Until a stage registers, the views show `null` or
 * nothing for its part.
 */
@Injectable()
export class OperationsSeams {
  private enrichment: EnrichmentStatusSource | null = null;
  private writeBacks: WriteBackHistorySource | null = null;
  private readonly timeline: ProductTimelineSource[] = [];

  provideEnrichmentStatus(source: EnrichmentStatusSource): void {
    this.enrichment = source;
  }

  provideWriteBackHistory(source: WriteBackHistorySource): void {
    this.writeBacks = source;
  }

  addTimelineSource(source: ProductTimelineSource): void {
    this.timeline.push(source);
  }

  async enrichmentStatus(): Promise<EnrichmentStatus> {
    return (await this.enrichment?.status()) ?? { checkpoint: null, lagSeconds: null, watchlistSize: null };
  }

  /** Null when no stage keeps a write-back history yet. */
  async writeBackHistory(shop: string, productId: string, limit: number): Promise<WriteBackEntry[] | null> {
    return this.writeBacks === null ? null : this.writeBacks.history(shop, productId, limit);
  }

  timelineSources(): readonly ProductTimelineSource[] {
    return this.timeline;
  }
}
