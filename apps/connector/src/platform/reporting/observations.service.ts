import { Injectable } from '@nestjs/common';

/**
 * What the connector's parts report for operators to count: catalog calls, the enrichment
 * stage's poll lag, write-backs and conflicts. Stages and the folders beside them may not import
 * `metrics/` (operations), so they tell this base sink, and metrics subscribes to it.
 */
export interface ObservationSink {
  /** One HTTP attempt to the catalog (`status` null: no answer). */
  catalogCall(event: { account: string; endpoint: string; status: number | null; outcome: string }): void;
  /** A 429 from the catalog. */
  catalogRateLimited(event: { account: string; endpoint: string }): void;
  /** How far the enrichment poll is behind (seconds since its checkpoint). */
  pollLag(event: { shop: string; seconds: number }): void;
  /** One write-back to Shopify finished (`outcome`: `written`, `skipped`, `failed`, ...). */
  writeBack(event: { shop: string; outcome: string }): void;
  /** A write-back conflict (Shopify changed under the value), by kind. */
  conflict(event: { shop: string; kind: string }): void;
  /** Open failures closed because a later run of their work succeeded (`resolved`). */
  failuresResolved(event: { shop: string; jobKind: string; count: number }): void;
  /** The queue backend was found to have lost its state (job schedulers gone), and was repaired. */
  queueStateLost(event: { missingSchedulers: number }): void;
}

type EventOf<K extends keyof ObservationSink> = Parameters<ObservationSink[K]>[0];

/**
 * The one sink every part reports to; it forwards to each subscriber (metrics, the budget view).
 * A subscriber that throws never reaches the reporting code: observation must not change work.
 */
@Injectable()
export class Observations implements ObservationSink {
  private readonly subscribers: Array<Partial<ObservationSink>> = [];

  subscribe(subscriber: Partial<ObservationSink>): void {
    this.subscribers.push(subscriber);
  }

  catalogCall(event: EventOf<'catalogCall'>): void {
    this.emit('catalogCall', event);
  }

  catalogRateLimited(event: EventOf<'catalogRateLimited'>): void {
    this.emit('catalogRateLimited', event);
  }

  pollLag(event: EventOf<'pollLag'>): void {
    this.emit('pollLag', event);
  }

  writeBack(event: EventOf<'writeBack'>): void {
    this.emit('writeBack', event);
  }

  conflict(event: EventOf<'conflict'>): void {
    this.emit('conflict', event);
  }

  failuresResolved(event: EventOf<'failuresResolved'>): void {
    this.emit('failuresResolved', event);
  }

  queueStateLost(event: EventOf<'queueStateLost'>): void {
    this.emit('queueStateLost', event);
  }

  private emit<K extends keyof ObservationSink>(kind: K, event: EventOf<K>): void {
    for (const subscriber of this.subscribers) {
      const handler = subscriber[kind] as ((event: EventOf<K>) => void) | undefined;
      try {
        handler?.call(subscriber, event);
      } catch {
        // Observation never breaks the work it observes.
      }
    }
  }
}
