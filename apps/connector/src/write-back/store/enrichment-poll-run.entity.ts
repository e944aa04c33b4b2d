import { Column, Entity, PrimaryColumn } from 'typeorm';

/** What one poll found, per shop and in total (`GET /admin/enrichment/poll/{id}`). */
export interface PollCounts {
  /** Records the searches returned (each once per walk). */
  found: number;
  /** Records no sku map row knows (created in the catalog by someone else): ignored. */
  unmapped: number;
  /** Records whose content hash was new: their products got push work. */
  changed: number;
  /** Products given push work (outbox rows). */
  products: number;
  /** Watchlist records re-checked, dropped by age, and still watched after the poll. */
  rechecked: number;
  agedOut: number;
  watched: number;
  /** Catalog search calls. */
  calls: number;
}

/** One shop's part of a poll: its counts and how far behind the catalog it was left (the enrichments list). */
export interface ShopPollCounts extends PollCounts {
  /** Seconds between the poll and its `completedAt` checkpoint after it; null before any. */
  lagSeconds: number | null;
}

/**
 * What a poll stores: the summed counts and, per shop polled, that shop's part; and the shops it
 * held, not polled, while their catalog work waits (the breaker open, no catalog key), with why.
 */
export type PollRunCounts = Partial<PollCounts> & {
  shops?: Record<string, ShopPollCounts>;
  held?: Record<string, string>;
};

/**
 * Who asked for a poll: the schedule (every shop, every `CONNECTOR_ENRICHMENT_POLL_INTERVAL_MS`),
 * the poll before it while shops have records waiting (`early`: those shops only, `EarlyPolls`),
 * or an operator (`admin`).
 */
export type PollTrigger = 'schedule' | 'early' | 'admin';

/** One poll, scheduled, early or asked for by an operator: when it ran and what it found. */
@Entity({ name: 'enrichment_poll' })
export class EnrichmentPollRun {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  trigger!: PollTrigger;

  @Column({ type: 'timestamptz', name: 'requested_at' })
  requestedAt!: Date;

  @Column({ type: 'timestamptz', name: 'started_at', nullable: true })
  startedAt!: Date | null;

  @Column({ type: 'timestamptz', name: 'finished_at', nullable: true })
  finishedAt!: Date | null;

  @Column({ type: 'jsonb' })
  counts!: PollRunCounts;

  @Column({ type: 'text', nullable: true })
  error!: string | null;
}
