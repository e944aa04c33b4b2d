import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueueName } from '../src/platform/queues/queue-names.js';
import { call } from './support/admin-client.js';
import { uiPage, uiSessionCookie } from './support/admin-ui-session.js';
import { eventually } from './support/connector-harness.js';
import { ADMIN_TOKEN, EnrichmentFixture } from './support/enrichment-fixture.js';

const RATE = 50;
const SHARE = 0.1;

interface PollBudget {
  windowSeconds: number;
  ratePerSecond: number;
  bound: number;
  earlyPolls: boolean;
  accounts: Array<{
    account: string;
    shops: string[];
    polls: Record<'schedule' | 'early' | 'admin', number>;
    calls: Record<'schedule' | 'early' | 'admin', number>;
    budgetCalls: number;
    share: number;
    bound: number;
  }>;
}

// Adaptive polling end to end (issue 44): while a record awaits review the poll comes early, an
// approval then reaches Shopify with the scheduled poll an hour away, the early polls stop once
// nothing waits, and their catalog calls are the poll's share of the account's budget on the
// catalog calls page and `GET /admin/enrichment/poll-budget`, beside the configured bound.
describe("the enrichment poll's share of the catalog budget", () => {
  let fx: EnrichmentFixture;

  beforeAll(async () => {
    fx = await EnrichmentFixture.start({
      env: {
        // The schedule an hour apart (the fixture's): every poll after the operator's is early.
        CONNECTOR_ENRICHMENT_POLL_ACTIVE_INTERVAL_MS: '200',
        // A product synced a second ago no longer counts as waiting: the watchlist alone keeps
        // the early polls going, and they stop once the review empties it.
        CONNECTOR_ENRICHMENT_POLL_ACTIVE_WINDOW_MS: '1000',
        CONNECTOR_ENRICHMENT_POLL_BUDGET_SHARE: String(SHARE),
        CONNECTOR_CATALOG_RATE_PER_SECOND: String(RATE),
      },
    });
  });
  afterAll(async () => {
    await fx?.close();
  });

  const callsPerTrigger = async () => {
    const { rows } = await fx.harness.db.query<{ trigger: string; polls: number; calls: number }>(
      `SELECT r.trigger, count(*)::int AS polls, COALESCE(sum((s.value->>'calls')::int), 0)::int AS calls
         FROM "${fx.harness.schema}".enrichment_poll r, jsonb_each(r.counts->'shops') s
        WHERE r.finished_at IS NOT NULL AND r.error IS NULL AND s.key = $1
        GROUP BY r.trigger`,
      [fx.shop.domain],
    );
    const of = (trigger: string) => rows.find((r) => r.trigger === trigger) ?? { polls: 0, calls: 0 };
    return { schedule: of('schedule'), early: of('early'), admin: of('admin') };
  };
  const earlyPollQueued = async () => {
    const queue = fx.harness.connector.app.get<Queue>(getQueueToken(QueueName.ENRICHMENT_POLL), {
      strict: false,
    });
    const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'prioritized']);
    return jobs.some((job) => String(job.id).startsWith('poll-early-'));
  };

  it('polls early while a record awaits review, pushes its approval, stops when nothing waits, and shows the share within its bound', async () => {
    // A simple product: one record, so one watched.
    const [product] = await fx.simpleProducts(1);
    if (!product) throw new Error('no product');
    await fx.enrich([product.parentSku]);
    // The operator's poll puts the record on the review watchlist; the early polls follow it.
    const first = (await fx.poll()) as { counts: { watched: number } };
    expect(first.counts.watched).toBe(1);
    await eventually(async () => (await callsPerTrigger()).early.polls >= 2);

    // Every value awaiting review approved: the record leaves the watchlist.
    const record = await fx.account.api.get(`/v1/products/${product.parentSku}`);
    const awaiting = (record.body.data.attributes as Array<{ key: string; blame?: string }>)
      .filter((a) => a.blame === 'ENRICHMENT')
      .map((a) => a.key);
    expect(awaiting).toContain('seoTitle');
    await fx.review(product.parentSku, { approve: awaiting });
    const approved = await fx.value(product.parentSku, 'seoTitle');
    await eventually(async () => (await fx.shopify(product.gid)).seo.title === approved);
    // The watchlist empties: the last early poll asks for no other, and none stays queued.
    await eventually(async () => !(await earlyPollQueued()));

    const stored = await callsPerTrigger();
    expect(stored.early.polls).toBeGreaterThanOrEqual(3);
    expect(stored.early.calls).toBeGreaterThanOrEqual(stored.early.polls);
    expect(stored.admin.polls).toBe(1);

    const answer = await call<PollBudget>(
      fx.harness.url,
      'GET',
      '/admin/enrichment/poll-budget?minutes=60',
      ADMIN_TOKEN,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ratePerSecond: RATE, bound: SHARE, earlyPolls: true });
    expect(answer.body.accounts).toHaveLength(1);
    const account = answer.body.accounts[0] as PollBudget['accounts'][number];
    expect(account.shops).toEqual([fx.shop.domain]);
    expect(account.calls).toEqual({
      schedule: stored.schedule.calls,
      early: stored.early.calls,
      admin: stored.admin.calls,
    });
    expect(account.polls.early).toBe(stored.early.polls);
    expect(account.budgetCalls).toBe(Math.round(RATE * answer.body.windowSeconds));
    // The scheduled and early polls count against the bound; the operator's poll does not.
    const spent = stored.schedule.calls + stored.early.calls;
    expect(account.share).toBeCloseTo(spent / account.budgetCalls, 3);
    expect(account.share).toBeGreaterThan(0);
    expect(account.share).toBeLessThanOrEqual(SHARE);
    expect(account.bound).toBe(SHARE);

    const page = await uiPage(
      fx.harness.url,
      await uiSessionCookie(fx.harness.url, ADMIN_TOKEN),
      '/admin/ui/catalog-calls?hours=1',
    );
    expect(page.status).toBe(200);
    const row = new RegExp(`<tr data-account="${escapeRegExp(account.account)}">([\\s\\S]*?)</tr>`).exec(
      page.html,
    )?.[1];
    expect(row).toContain(
      `<td data-calls="early">${stored.early.calls} <span class="muted">(${stored.early.polls} polls)</span></td>`,
    );
    expect(row).toContain(
      `<td class="opt" data-calls="admin">${stored.admin.calls} <span class="muted">(1 poll)</span></td>`,
    );
    expect(row).toContain('<td class="bound">10 %</td>');
    expect(row).toMatch(/<td class="share">\d+\.\d\d %<\/td>/);
    expect(page.html).toContain('Early polls are on');
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
