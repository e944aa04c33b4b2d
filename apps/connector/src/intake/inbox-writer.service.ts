import { Injectable } from '@nestjs/common';
import { type LogContext, logContext } from '../platform/http/log-context.js';
import { InboxRepository } from './inbox.repository.js';
import type { InboxEntry } from './inbox-entry.entity.js';
import type { VerifiedDelivery } from './verified-delivery.js';

/** INSERT statements of the inbox under way at once (the others' deliveries wait and group). */
const IN_FLIGHT = 2;
/** Deliveries per INSERT at most. */
const GROUP_SIZE = 200;

/** The log correlation of a shared statement: it is no single request's. */
const GROUP_LOG_CONTEXT = { correlationId: 'inbox:insert' };

/** A delivery waiting for its INSERT, and its request's answer. */
interface WaitingInsert {
  delivery: VerifiedDelivery;
  receivedAt: Date;
  /** Its request's log context. */
  context: LogContext | undefined;
  resolve(row: InboxEntry | null): void;
  reject(error: unknown): void;
}

/**
 * Group commit of the webhook answers' INSERTs: while `IN_FLIGHT` statements are under way, the
 * deliveries of further requests wait, and go together in the next one (one statement, one
 * commit). No timer: a delivery that finds a free slot is inserted at once, so a quiet connector
 * pays nothing and a busy one makes fewer, larger statements. Each request gets its own row, or
 * null for a duplicate (a webhook id stored before, or earlier in the same group). A group that
 * fails is tried again one delivery at a time, so a delivery the database refuses fails alone.
 */
@Injectable()
export class InboxWriter {
  private waiting: WaitingInsert[] = [];
  private inFlight = 0;

  constructor(private readonly repository: InboxRepository) {}

  /** Stores the delivery unless its webhook id is already there; resolves to the new row or null. */
  insert(delivery: VerifiedDelivery, receivedAt: Date): Promise<InboxEntry | null> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ delivery, receivedAt, context: logContext.current(), resolve, reject });
      this.next();
    });
  }

  private next(): void {
    while (this.inFlight < IN_FLIGHT && this.waiting.length > 0) {
      const group = this.waiting.splice(0, GROUP_SIZE);
      this.inFlight++;
      const write = () => this.write(group);
      // A delivery inserted alone keeps its request's log context.
      const context = group.length === 1 ? group[0]?.context : GROUP_LOG_CONTEXT;
      const written = context ? logContext.run(context, write) : write();
      void written.finally(() => {
        this.inFlight--;
        this.next();
      });
    }
  }

  private async write(group: WaitingInsert[]): Promise<void> {
    try {
      const rows = await this.repository.insertMany(group);
      group.forEach((waiting, i) => {
        waiting.resolve(rows[i] ?? null);
      });
    } catch (error) {
      if (group.length === 1) {
        group[0]?.reject(error);
        return;
      }
      await Promise.all(
        group.map((waiting) =>
          waiting.context
            ? logContext.run(waiting.context, () => this.writeAlone(waiting))
            : this.writeAlone(waiting),
        ),
      );
    }
  }

  private async writeAlone(waiting: WaitingInsert): Promise<void> {
    try {
      const [row] = await this.repository.insertMany([waiting]);
      waiting.resolve(row ?? null);
    } catch (error) {
      waiting.reject(error);
    }
  }
}
