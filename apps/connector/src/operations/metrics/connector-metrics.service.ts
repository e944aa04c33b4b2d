import { Injectable } from '@nestjs/common';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Label values of a topic: the product topics by name, anything else as `other` (bounded). */
const PRODUCT_TOPICS = new Set([
  'products/create',
  'products/update',
  'products/delete',
  'app/uninstalled',
  'shop/redact',
  'customers/data_request',
  'customers/redact',
]);

/** A gauge's values, read at scrape time. */
export type GaugeReading = Array<{ labels: Record<string, string>; value: number }>;

/**
 * The connector's Prometheus metrics, in a registry of this instance's own (never prom-client's
 * global one: tests run several connectors in one process). Counters move as work happens;
 * gauges of state (queues, failures, breakers) are read when `/metrics` is scraped.
 */
@Injectable()
export class ConnectorMetrics {
  readonly registry = new Registry();

  private readonly webhooksReceived = new Counter({
    name: 'connector_webhooks_received_total',
    help: 'Signed webhook deliveries taken, by topic and status (accepted: stored now; processed: a lifecycle or compliance delivery acted on; ignored: a topic the connector does not handle).',
    labelNames: ['topic', 'status'],
    registers: [this.registry],
  });

  private readonly webhooksReplayed = new Counter({
    name: 'connector_webhooks_replayed_total',
    help: 'Deliveries of a webhook id stored before (Shopify retries, replays), by topic.',
    labelNames: ['topic'],
    registers: [this.registry],
  });

  private readonly webhooksRefused = new Counter({
    name: 'connector_webhooks_refused_total',
    help: 'Webhook deliveries answered with an error, by reason (the error code).',
    labelNames: ['reason'],
    registers: [this.registry],
  });

  private readonly jobs = new Counter({
    name: 'connector_jobs_total',
    help: "Job runs finished in this process, by kind and outcome (the job's result, retried or failed).",
    labelNames: ['kind', 'outcome'],
    registers: [this.registry],
  });

  private readonly failuresResolved = new Counter({
    name: 'connector_failures_resolved_total',
    help: 'Failures closed, by job kind and action: replayed or dismissed by an operator, or resolved by a later successful run.',
    labelNames: ['job_kind', 'action'],
    registers: [this.registry],
  });

  /** Catalog HTTP attempts by endpoint template and status (`none`: no answer). */
  readonly catalogCalls = new Counter({
    name: 'connector_catalog_calls_total',
    help: 'Catalog API attempts by account, endpoint (route template) and HTTP status (none: no answer).',
    labelNames: ['account', 'endpoint', 'status'],
    registers: [this.registry],
  });

  readonly catalogRateLimited = new Counter({
    name: 'connector_catalog_rate_limited_total',
    help: 'Catalog answers 429 (Too Many Requests), by account and endpoint.',
    labelNames: ['account', 'endpoint'],
    registers: [this.registry],
  });

  readonly syncDuration = new Histogram({
    name: 'connector_sync_duration_seconds',
    help: 'Product sync jobs finished in this process: from the job being enqueued to its end (latency) and its run alone (run).',
    labelNames: ['phase'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
    registers: [this.registry],
  });

  readonly writeBacks = new Counter({
    name: 'connector_write_backs_total',
    help: 'Write-backs to Shopify finished, by shop and outcome.',
    labelNames: ['shop', 'outcome'],
    registers: [this.registry],
  });

  readonly conflicts = new Counter({
    name: 'connector_write_back_conflicts_total',
    help: 'Write-back conflicts (Shopify changed under the value), by shop and kind.',
    labelNames: ['shop', 'kind'],
    registers: [this.registry],
  });

  readonly queueStateLost = new Counter({
    name: 'connector_queue_state_lost_total',
    help: 'Times this process found the queue backend without its job schedulers (its data lost) and repaired it from PostgreSQL.',
    registers: [this.registry],
  });

  private readonly scrapeErrors = new Counter({
    name: 'connector_metrics_read_errors_total',
    help: 'Gauges that could not be read at a scrape (their series are left out), by gauge.',
    labelNames: ['gauge'],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'connector_' });
  }

  webhook(topic: string | undefined, status: 'accepted' | 'duplicate' | 'ignored' | 'processed'): void {
    const label = topic !== undefined && PRODUCT_TOPICS.has(topic) ? topic : 'other';
    if (status === 'duplicate') this.webhooksReplayed.inc({ topic: label });
    else this.webhooksReceived.inc({ topic: label, status });
  }

  webhookRefused(reason: string): void {
    this.webhooksRefused.inc({ reason });
  }

  job(kind: string, outcome: string): void {
    this.jobs.inc({ kind, outcome });
  }

  failureResolved(jobKind: string, action: 'replayed' | 'dismissed' | 'resolved', count = 1): void {
    this.failuresResolved.inc({ job_kind: jobKind, action }, count);
  }

  /** Registers a gauge read at each scrape; a read that fails leaves its series out and is counted. */
  gauge(name: string, help: string, labelNames: string[], read: () => Promise<GaugeReading>): void {
    const errors = this.scrapeErrors;
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        try {
          for (const { labels, value } of await read()) this.set(labels, value);
        } catch {
          errors.inc({ gauge: name });
        }
      },
    });
  }

  /** The text exposition (`text/plain; version=0.0.4`). */
  render(): Promise<string> {
    return this.registry.metrics();
  }
}
