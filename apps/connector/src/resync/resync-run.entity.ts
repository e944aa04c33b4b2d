import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { BulkAttempt } from '../clients/shopify/bulk-product.reader.js';

/**
 * What a run resyncs: one product, every product of the shop, or what a reconciliation started
 * by an operator finds (missed changes and deletions since the shop's checkpoint).
 */
export type ResyncScope = 'product' | 'shop' | 'reconcile';

/**
 * `running` until the walk is over and every listed product synced (or failed); `cancelled`
 * by an operator; `failed` when the walk itself could not go on (its failure is recorded).
 */
export type ResyncRunState = 'running' | 'done' | 'cancelled' | 'failed';

/**
 * How a whole-shop run reads the shop: `pages` (at most `CONNECTOR_BULK_THRESHOLD` products),
 * `bulk` (one bulk query), `bulk-fallback` (the bulk query failed twice: pages after all).
 */
export type ResyncReadMode = 'pages' | 'bulk' | 'bulk-fallback';

/**
 * One resync run (migration `CreateResync1764000000040`). A whole-shop run walks Shopify page by
 * page; `cursor` is the last page's end, persisted before the next page is asked for, so a
 * restarted connector resumes where the run was instead of starting over.
 */
@Entity({ name: 'resync_runs' })
export class ResyncRun {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'text' })
  shop!: string;

  @Column({ type: 'text' })
  scope!: ResyncScope;

  /** The product of a one-product run (decimal string), null for a whole shop. */
  @Column({ type: 'bigint', name: 'product_id', nullable: true })
  productId!: string | null;

  @Column({ type: 'text' })
  state!: ResyncRunState;

  /** Shopify's `endCursor` of the last page listed; null before the first page. */
  @Column({ type: 'text', nullable: true })
  cursor!: string | null;

  @Column({ type: 'integer' })
  pages!: number;

  /** Products listed (and enqueued) so far. */
  @Column({ type: 'integer' })
  listed!: number;

  /** True once the last page was listed: from then on the run's size is known. */
  @Column({ type: 'boolean', name: 'walk_done' })
  walkDone!: boolean;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  /**
   * A dry run (issue 31, migration `ResyncDryRuns1764000000087`): it reads and plans each product
   * as its sync would, sends no write, and keeps each product's plan in the run.
   */
  @Column({ type: 'boolean', name: 'dry_run', default: false })
  dryRun!: boolean;

  /** Decided by the first page job (migration `ResyncBulkReads1764000000060`); null before. */
  @Column({ type: 'text', name: 'read_mode', nullable: true })
  readMode!: ResyncReadMode | null;

  /** The run's bulk operations and how each ended. */
  @Column({ type: 'jsonb', name: 'bulk_attempts' })
  bulkAttempts!: BulkAttempt[];

  @Column({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;

  @Column({ type: 'timestamptz', name: 'finished_at', nullable: true })
  finishedAt!: Date | null;
}
