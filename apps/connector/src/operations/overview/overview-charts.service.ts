import { Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { InboxRepository } from '../../intake/inbox.repository.js';
import { FailuresService } from '../../platform/failures/failures.service.js';
import { EnrichmentPollRuns } from '../../write-back/store/enrichment-poll-runs.repository.js';
import { WriteBackStates } from '../../write-back/store/write-back-states.repository.js';
import {
  CHART_LONGEST_MS,
  chartWindow,
  earliestOf,
  lagPerMinute,
  type OverviewChart,
  windowWords,
} from './chart-window.js';
import { OverviewMinutes } from './overview-minutes.repository.js';
import { OverviewRecorder } from './overview-recorder.service.js';
import { perMinute } from './per-minute.js';

/** Line colours, each at least 4.5:1 against white. */
const COLOURS = ['#0b4fb3', '#1b6e35', '#8a4b00', '#a4161a', '#6a3d9a'];

type Rows = ReadonlyArray<{ minute: Date }>;

/**
 * Why: the overview's charts, per minute, from the tables' own timestamps (deliveries, syncs by
 * outcome, write-backs, failures) and the minutes the recorder keeps (catalog calls, 429s), over
 * a window that fits the data (`chartWindow`); the poll lag as its card measures it: the time
 * since the last poll that finished its work.
 */
@Injectable()
export class OverviewCharts {
  /** When this process started: a younger connector's charts start here (or at older data). */
  private readonly startedAt: number;

  constructor(
    private readonly inbox: InboxRepository,
    private readonly failures: FailuresService,
    private readonly pushes: WriteBackStates,
    private readonly polls: EnrichmentPollRuns,
    private readonly minutes: OverviewMinutes,
    private readonly recorder: OverviewRecorder,
    private readonly clock: Clock,
  ) {
    this.startedAt = clock.now();
  }

  async charts(): Promise<OverviewChart[]> {
    // This process's counts since its last write, so the charts include them.
    await this.recorder.flush();
    const now = this.clock.now();
    const since = new Date(now - CHART_LONGEST_MS);
    const [deliveries, failures, outcomes, written, calls, limited, finishes] = await Promise.all([
      this.inbox.perMinute(since, null),
      this.failures.perMinute(since),
      this.inbox.outcomesPerMinute(since),
      this.pushes.pushesPerMinute(since),
      this.minutes.since('catalog_calls', since),
      this.minutes.since('catalog_429', since),
      this.polls.finishedSince(since),
    ]);
    const oldest = (rows: Rows) => earliestOf(...rows.map((r) => r.minute));
    const earliest = [deliveries, failures.opened, outcomes, written, calls, limited]
      .map(oldest)
      .concat(earliestOf(...finishes.filter((f) => f.getTime() >= since.getTime())))
      .filter((t): t is number => t !== null);
    const window = chartWindow(now, earliest.length > 0 ? Math.min(...earliest) : null, this.startedAt);
    const per = (rows: ReadonlyArray<{ minute: Date; count: number }>) =>
      perMinute(rows, now, window.minutes);
    const last = windowWords(window.minutes);
    const chart = (
      id: string,
      title: string,
      href: string,
      unit: string,
      series: OverviewChart['series'],
      measure: OverviewChart['measure'] = 'count',
    ): OverviewChart => ({
      id,
      title: `${title}, ${last}`,
      href,
      unit,
      measure,
      from: window.from,
      to: now,
      series,
    });
    const kinds = [...new Set(outcomes.map((row) => row.outcome))].sort().slice(0, COLOURS.length);
    return [
      chart(
        'chart-deliveries',
        'Webhook deliveries per minute',
        '/admin/ui/deliveries?hours=24',
        'deliveries/min',
        [{ name: 'deliveries', colour: '#0b4fb3', values: per(deliveries) }],
      ),
      chart(
        'chart-syncs',
        'Deliveries synced per minute by outcome',
        '/admin/ui/syncs',
        'deliveries/min',
        kinds.map((kind, i) => ({
          name: kind.replace(/_/g, ' '),
          colour: COLOURS[i] as string,
          values: per(outcomes.filter((row) => row.outcome === kind)),
        })),
      ),
      chart(
        'chart-catalog',
        'Catalog calls and 429 answers per minute',
        '/admin/ui/catalog-calls?hours=24',
        'calls/min',
        [
          { name: 'calls', colour: '#0b4fb3', values: per(calls) },
          { name: '429', colour: '#a4161a', values: per(limited) },
        ],
      ),
      chart(
        'chart-lag',
        'Enrichment poll lag (time since the last finished poll)',
        '/admin/ui/enrichment-polls?hours=24',
        's',
        [{ name: 'lag', colour: '#8a4b00', values: lagPerMinute(finishes, now, window.minutes) }],
        'seconds',
      ),
      chart(
        'chart-write-backs',
        'Write-backs to Shopify per minute',
        '/admin/ui/write-backs?hours=24',
        'writes/min',
        [{ name: 'write-backs', colour: '#6a3d9a', values: per(written) }],
      ),
      chart(
        'chart-failures',
        'Failures opened and resolved per minute',
        '/admin/ui/failures?hours=24',
        'failures/min',
        [
          { name: 'opened', colour: '#a4161a', values: per(failures.opened) },
          { name: 'resolved', colour: '#1b6e35', values: per(failures.resolved) },
        ],
      ),
    ];
  }
}
