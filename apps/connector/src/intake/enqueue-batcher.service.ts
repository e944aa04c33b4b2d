import {
  type BeforeApplicationShutdown,
  Injectable,
  Logger,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { Clock } from '#lib/clock';
import { InboxSettings } from '../platform/config/settings.js';
import { logContext } from '../platform/http/log-context.js';
import type { SyncProductPayload } from '../platform/queues/job-payloads.js';
import { InboxRepository } from './inbox.repository.js';
import { SyncEnqueuer } from './sync-enqueuer.service.js';

/** A stored delivery whose product's sync is to be enqueued. */
export interface StoredDelivery {
  /** The inbox row's id. */
  id: string;
  shop: string;
  productId: string;
}

/** A batch is flushed at once when it holds this many deliveries. */
const BATCH_SIZE = 500;
/**
 * Deliveries held at most (a queue that stopped answering): beyond, `add` refuses and the
 * sweeper enqueues them, so memory stays bounded.
 */
const MAX_HELD = 20_000;
/**
 * Deliveries of one shop held at most: a shop's storm while the queue is slow fills its own share,
 * never the whole, so the other shops' deliveries are still taken (docs/sync.md, "Fairness across
 * shops"); the storm's overflow is stored and left for the sweeper.
 */
const MAX_HELD_PER_SHOP = MAX_HELD / 4;

/**
 * The log correlation of a flush: it serves many requests, so its lines must not carry the one
 * whose delivery happened to start the wait.
 */
const FLUSH_LOG_CONTEXT = { correlationId: 'inbox:enqueue' };

/** One product of a batch: its sync payload and the deliveries waiting for it. */
interface HeldProduct {
  payload: SyncProductPayload;
  ids: string[];
}

/**
 * Takes the enqueue off the webhook's answer: the answer waits for the durable insert only, and
 * the stored deliveries are enqueued here in batches, every `CONNECTOR_INBOX_ENQUEUE_FLUSH_MS`
 * (or as soon as a batch fills): one bulk add of each distinct product's sync, then one UPDATE
 * of the batch's `enqueued_at`. One flush runs at a time; what arrives meanwhile goes in the next,
 * an interval after this one began (at once if it took longer). Under a steady stream that is
 * one flush per interval: starting the next flush as soon as one ended made them back to back
 * (65 a second at 300 deliveries a second, issue 44), each reading its products' jobs again, a
 * load the PostgreSQL queue backend shares with the webhook answer's INSERT.
 *
 * Nothing is lost when a flush fails or the process dies with deliveries held: their rows are
 * stored and still `received`, so the sweeper enqueues them after `CONNECTOR_INBOX_SWEEP_AFTER_MS`
 * (a failed flush is retried once first). On shutdown everything held is flushed before the
 * queues and the database close; a delivery accepted during the shutdown is flushed at once.
 */
@Injectable()
export class EnqueueBatcher implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('InboxEnqueue');
  private held = new Map<string, HeldProduct>();
  private heldCount = 0;
  private heldByShop = new Map<string, number>();
  private flushing: Promise<void> | null = null;
  /** When the last flush began (clock ms): the next one waits an interval from it. */
  private lastStart = Number.NEGATIVE_INFINITY;
  /** Bumped by every flush, so a wait scheduled before it does not flush the next batch early. */
  private round = 0;
  private waiting = false;
  private draining = false;
  private closed = false;
  /** The shops whose deliveries are refused now (the whole, `*`, or one shop's share full): logged once. */
  private readonly refusing = new Set<string>();

  constructor(
    private readonly enqueuer: SyncEnqueuer,
    private readonly repository: InboxRepository,
    private readonly clock: Clock,
    private readonly settings: InboxSettings,
  ) {}

  /**
   * Hands over a stored delivery; false when it is not taken (shut down, or too many held):
   * it stays for the sweeper.
   */
  add(delivery: StoredDelivery): boolean {
    if (this.closed) return false;
    const ofShop = this.heldByShop.get(delivery.shop) ?? 0;
    if (this.heldCount >= MAX_HELD) return this.refuse('*', `${MAX_HELD} deliveries wait to be enqueued`);
    if (ofShop >= MAX_HELD_PER_SHOP)
      return this.refuse(
        delivery.shop,
        `${MAX_HELD_PER_SHOP} deliveries of ${delivery.shop} wait to be enqueued`,
      );
    this.refusing.delete('*');
    this.refusing.delete(delivery.shop);
    this.heldByShop.set(delivery.shop, ofShop + 1);
    const key = `${delivery.shop}\u0000${delivery.productId}`;
    const product = this.held.get(key);
    if (product) product.ids.push(delivery.id);
    else {
      this.held.set(key, {
        payload: { shop: delivery.shop, productId: delivery.productId, reason: 'webhook' },
        ids: [delivery.id],
      });
    }
    this.heldCount++;
    if (this.draining || this.heldCount >= BATCH_SIZE) this.start();
    else this.schedule();
    return true;
  }

  /** Refuses a delivery (it stays stored, for the sweeper), warning once per full spell. */
  private refuse(who: string, why: string): false {
    if (!this.refusing.has(who)) this.logger.warn(`${why}: new ones are left for the sweeper`);
    this.refusing.add(who);
    return false;
  }

  /** Deliveries handed over and not flushed yet. */
  get pending(): number {
    return this.heldCount;
  }

  /** Flushes everything held, and waits for it (and for a flush under way). */
  async flush(): Promise<void> {
    while (this.flushing !== null || this.heldCount > 0) {
      if (this.flushing === null) this.start();
      await this.flushing;
    }
  }

  /** Before the HTTP server, the queues and the database close: flush, then flush at once. */
  async beforeApplicationShutdown(): Promise<void> {
    this.draining = true;
    await this.flush();
  }

  /** What deliveries still finishing during the shutdown handed over is flushed (or swept later). */
  async onApplicationShutdown(): Promise<void> {
    this.draining = true;
    await this.flush();
    this.closed = true;
  }

  private schedule(ms = this.settings.enqueueFlushMs): void {
    if (this.waiting || this.flushing !== null) return;
    this.waiting = true;
    const round = this.round;
    void this.clock.sleep(ms).then(() => {
      if (round !== this.round) return;
      this.waiting = false;
      this.start();
    });
  }

  /** Starts a flush of what is held, unless one runs (its end starts the next). */
  private start(): void {
    if (this.flushing !== null || this.heldCount === 0) return;
    this.round++;
    this.waiting = false;
    this.lastStart = this.clock.now();
    const batch = [...this.held.values()];
    this.held = new Map();
    this.heldCount = 0;
    this.heldByShop = new Map();
    this.flushing = logContext
      .run(FLUSH_LOG_CONTEXT, () => this.send(batch))
      .finally(() => {
        this.flushing = null;
        this.next();
      });
  }

  /**
   * After a flush: what arrived during it goes an interval after that flush began, at once when
   * that time has passed (a long flush: it has waited long enough), a batch is full, or the
   * process is shutting down.
   */
  private next(): void {
    if (this.heldCount === 0) return;
    const wait = this.lastStart + this.settings.enqueueFlushMs - this.clock.now();
    if (this.draining || this.heldCount >= BATCH_SIZE || wait <= 0) this.start();
    else this.schedule(wait);
  }

  /** Enqueues a batch's products (one retry), then marks its deliveries enqueued. Never throws. */
  private async send(batch: HeldProduct[]): Promise<void> {
    const payloads = batch.map((product) => product.payload);
    const ids = batch.flatMap((product) => product.ids);
    try {
      await this.enqueuer.enqueueMany(payloads);
    } catch (first) {
      this.logger.warn(`Enqueue of ${payloads.length} product(s) failed, retrying once: ${describe(first)}`);
      try {
        await this.clock.sleep(this.settings.enqueueFlushMs);
        await this.enqueuer.enqueueMany(payloads);
      } catch (error) {
        // Stored is kept: the sweeper enqueues them later (docs/webhooks-and-lifecycle.md, "Intake").
        this.logger.warn(
          `${ids.length} stored deliveries (${payloads.length} product(s)) not queued yet, left for the sweeper: ${describe(error)}`,
        );
        return;
      }
    }
    try {
      await this.repository.markEnqueued(ids, new Date(this.clock.now()));
    } catch (error) {
      // Their jobs are queued; `enqueued_at` is only a note (a replay enqueues again, deduplicated).
      this.logger.warn(`Could not mark ${ids.length} deliveries enqueued: ${describe(error)}`);
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
