import { getQueueToken } from '@nestjs/bullmq';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bullmq';
import { CatalogClients } from '../../clients/catalog/catalog-clients.service.js';
import { CatalogGate } from '../../clients/catalog/catalog-gate.service.js';
import { FailuresService } from '../../platform/failures/failures.service.js';
import { ALL_QUEUES } from '../../platform/queues/queue-names.js';
import { DependencyHealth } from '../../platform/reporting/dependency-health.service.js';
import { SHOP_STATES } from '../../shops/shop-session.entity.js';
import { ShopSessionRepository } from '../../shops/shop-sessions.repository.js';
import { Shops } from '../../shops/shops.js';
import { ConnectorMetrics } from './connector-metrics.service.js';
import { notIn, ShopSeries, total } from './shop-series.service.js';

const READ_TIMEOUT_MS = 2_000;
const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;
const BREAKER_STATES = ['closed', 'open', 'half-open'] as const;
const DEPENDENCY_STATES = ['up', 'degraded', 'down', 'unknown'] as const;

/**
 * The gauges of state, read at scrape time: each shop's state and token renewals, open failures,
 * queue depth per queue and state, and each catalog account's breaker. A dependency that does not answer in 2 s leaves its series out;
 * the scrape itself never fails or hangs on it.
 */
@Injectable()
export class StateGauges implements OnModuleInit {
  constructor(
    private readonly metrics: ConnectorMetrics,
    private readonly failures: FailuresService,
    private readonly catalogs: CatalogClients,
    private readonly moduleRef: ModuleRef,
    private readonly gate: CatalogGate,
    private readonly dependencies: DependencyHealth,
    private readonly shops: Shops,
    private readonly sessions: ShopSessionRepository,
    private readonly series: ShopSeries,
  ) {}

  onModuleInit(): void {
    this.metrics.gauge(
      'connector_shop_state',
      "Each shop's state: 1 for its current one (active, needs_reauth, uninstalled, redacted), 0 for the others.",
      ['shop', 'state'],
      async () => {
        const rows = new Map((await timed(this.sessions.all())).map((row) => [row.shop, row.state]));
        const readings = this.shops.all.flatMap((shop) =>
          SHOP_STATES.map((state) => ({
            labels: { shop: shop.domain, state },
            value: (rows.get(shop.domain) ?? 'active') === state ? 1 : 0,
          })),
        );
        return this.series.keep(readings, 'shop', notIn('state', 'active'));
      },
    );
    this.metrics.gauge(
      'connector_shop_token_refreshes',
      'Access tokens obtained for each shop (grants, refreshes, installs) since it was first served, across replicas.',
      ['shop'],
      async () =>
        this.series.keep(
          (await timed(this.sessions.all())).map((row) => ({
            labels: { shop: row.shop },
            value: row.refreshCount,
          })),
          'shop',
          total,
        ),
    );
    this.metrics.gauge(
      'connector_webhook_subscriptions_recreated',
      'Webhook subscriptions the scheduled check created again for each shop (Shopify deleted them), across replicas.',
      ['shop'],
      async () =>
        this.series.keep(
          (await timed(this.sessions.all())).map((row) => ({
            labels: { shop: row.shop },
            value: row.subscriptionsRecreated,
          })),
          'shop',
          total,
        ),
    );
    this.metrics.gauge(
      'connector_failures_open',
      'Open failures (recorded, neither replayed nor dismissed), by shop and job kind.',
      ['shop', 'job_kind'],
      async () =>
        this.series.keep(
          (await timed(this.failures.openCounts())).map((row) => ({
            labels: { shop: row.shop, job_kind: row.jobKind },
            value: row.count,
          })),
          'shop',
          // `*`: a failure of every shop's job (a poll that failed before any shop) stays named.
          (own) => (own[0]?.labels.shop === '*' ? Number.POSITIVE_INFINITY : total(own)),
        ),
    );
    const queues = ALL_QUEUES.map((name) => ({
      name,
      queue: this.moduleRef.get<Queue>(getQueueToken(name), { strict: false }),
    }));
    this.metrics.gauge(
      'connector_queue_jobs',
      "Jobs per queue and state (waiting, active, delayed, failed), across all replicas; waiting counts the jobs waiting their shop's turn (prioritized) too.",
      ['queue', 'state'],
      async () => {
        const counts = await timed(
          Promise.all(queues.map(({ queue }) => queue.getJobCounts(...QUEUE_STATES, 'prioritized'))),
        );
        return queues.flatMap(({ name }, index) =>
          QUEUE_STATES.map((state) => ({
            labels: { queue: name, state },
            // A job with a priority (a shop's turn, `ShopLanes`) waits as BullMQ's `prioritized`.
            value:
              (counts[index]?.[state] ?? 0) + (state === 'waiting' ? (counts[index]?.prioritized ?? 0) : 0),
          })),
        );
      },
    );
    this.metrics.gauge(
      'connector_catalog_breaker_state',
      "Each catalog account's breaker as this process sees it (one for every replica, shared): 1 for its current state, 0 for the others. " +
        'The account is `<catalog URL>#<key fingerprint>`, never the key.',
      ['account', 'state'],
      async () =>
        this.series.keep(
          this.catalogs.all().flatMap((account) =>
            BREAKER_STATES.map((state) => ({
              labels: { account: account.id, state },
              value: account.client.breaker.state === state ? 1 : 0,
            })),
          ),
          'account',
          notIn('state', 'closed'),
        ),
    );
    this.metrics.gauge(
      'connector_sync_paused',
      "1 when a shop's sync waits, by why: `breaker` (its catalog account's breaker is open), `operator` (paused through the admin API) or `catalog-key` (a shop that installed the app, waiting for its catalog key).",
      ['shop', 'by'],
      async () =>
        this.series.keep(
          this.shops.all.flatMap(({ domain }) => {
            const state = this.gate.pauseState(domain);
            return (['breaker', 'operator', 'catalog-key'] as const).map((by) => ({
              labels: { shop: domain, by },
              value: state.by === by ? 1 : 0,
            }));
          }),
          'shop',
          total,
        ),
    );
    this.metrics.gauge(
      'connector_dependency_status',
      'Each dependency (catalog account, Shopify shop) as last checked on its schedule: 1 for its status (up, degraded, down, unknown), 0 for the others.',
      ['dependency', 'status'],
      async () => {
        const readings = Object.entries(this.dependencies.snapshot()).flatMap(([dependency, report]) =>
          DEPENDENCY_STATES.map((status) => ({
            labels: { dependency, status },
            value: report.status === status ? 1 : 0,
          })),
        );
        // A shop's checks (`shopify:`) and an account's (`catalog:`) are bounded each on their
        // own, the unhealthy first, the others summed into `shopify:_other` and `catalog:_other`;
        // the connector's own dependencies (the queue) keep theirs.
        const kindOf = (name: string) => (name.includes(':') ? name.slice(0, name.indexOf(':')) : '');
        const kinds = new Set(readings.map((r) => kindOf(r.labels.dependency)));
        return [...kinds].flatMap((kind) => {
          const own = readings.filter((r) => kindOf(r.labels.dependency) === kind);
          return kind === ''
            ? own
            : this.series.keep(own, 'dependency', notIn('status', 'up'), 'sum', () => `${kind}:_other`);
        });
      },
    );
  }
}

async function timed<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), READ_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
