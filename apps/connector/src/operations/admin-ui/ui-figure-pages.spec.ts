import { describe, expect, it } from 'vitest';
import type { PollBudgetView } from '../../write-back/poll/poll-budget-shares.service.js';
import type { EnrichmentPollRun } from '../../write-back/store/enrichment-poll-run.entity.js';
import { catalogCallsPage, enrichmentPollsPage } from './ui-figure-pages.js';

const counts = {
  found: 4,
  unmapped: 0,
  changed: 2,
  products: 1,
  rechecked: 0,
  agedOut: 0,
  watched: 0,
  calls: 3,
};
const run = (over: Partial<EnrichmentPollRun>): EnrichmentPollRun => ({
  id: 'poll-1',
  trigger: 'admin',
  requestedAt: new Date('2026-01-01T10:00:00Z'),
  startedAt: new Date('2026-01-01T10:00:01Z'),
  finishedAt: new Date('2026-01-01T10:00:05Z'),
  counts: {
    found: 5,
    changed: 2,
    products: 1,
    calls: 4,
    shops: {
      'a.myshopify.com': { ...counts, lagSeconds: 90 },
      'b.myshopify.com': { ...counts, found: 1, changed: 0, products: 0, calls: 1, lagSeconds: 1_800 },
    },
  },
  error: null,
  ...over,
});
const NOW = Date.parse('2026-01-01T10:30:00Z');
/** Each row's cells as text (tags such as `<time>` left out). */
const cells = (html: string) =>
  [...html.matchAll(/<tr data-poll="[^"]+">([\s\S]*?)<\/tr>/g)].map((m) =>
    [...(m[1] as string).matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) =>
      (c[1] as string).replace(/<[^>]+>/g, ''),
    ),
  );

describe('enrichmentPollsPage', () => {
  it("shows each poll in total, its highest lag over its shops, or one shop's part of it", () => {
    const runs = [run({}), run({ id: 'poll-2', counts: {}, error: 'catalog <down>' })];
    const all = enrichmentPollsPage(runs, { shop: null, hours: 24 }, [], 'csrf', NOW);
    expect(cells(all)[0]).toEqual([
      '29 min ago',
      'an operator',
      'a.myshopify.com, b.myshopify.com',
      '5',
      '2',
      '1',
      '4',
      '30 min',
      'finished',
    ]);
    expect(cells(all)[1]?.slice(3)).toEqual(['', '', '', '', '—', 'failed: catalog &lt;down&gt;']);
    const one = enrichmentPollsPage(
      runs,
      { shop: 'a.myshopify.com', hours: 24 },
      ['a.myshopify.com'],
      'csrf',
      NOW,
    );
    expect(cells(one)[0]?.slice(2)).toEqual(['a.myshopify.com', '4', '2', '1', '3', '90 s', 'finished']);
    expect(one).toContain('<option value="a.myshopify.com" selected>');
    // The time relative to the Clock's now, the exact time (no milliseconds) on hover.
    expect(all).toContain(
      '<time datetime="2026-01-01T10:00:01Z" title="2026-01-01 10:00:01 UTC">29 min ago</time>',
    );
  });

  it('shows a poll that held a shop on its open catalog breaker as paused, with the cause, not failed', () => {
    const cause = 'catalog unavailable (breaker open)';
    const held = run({ id: 'poll-4', counts: { shops: {}, held: { 'a.myshopify.com': cause } } });
    const partly = run({
      id: 'poll-5',
      counts: { ...run({}).counts, held: { 'c.myshopify.com': cause } },
    });
    const all = enrichmentPollsPage([held, partly], { shop: null, hours: 24 }, [], 'csrf', NOW);
    expect(cells(all).map((row) => row.at(-1))).toEqual([
      `paused: a.myshopify.com — ${cause}`,
      `finished; paused: c.myshopify.com — ${cause}`,
    ]);
    expect(all).not.toContain('class="outcome error"');
    const one = enrichmentPollsPage([held, partly], { shop: 'a.myshopify.com', hours: 24 }, [], 'csrf', NOW);
    expect(cells(one)[0]?.at(-1)).toBe(`paused: ${cause}`);
  });

  it('says when a poll is still queued or running', () => {
    const queued = run({ startedAt: null, finishedAt: null, counts: {} });
    const running = run({ id: 'poll-3', finishedAt: null, counts: {} });
    const html = enrichmentPollsPage([queued, running], { shop: null, hours: 1 }, [], 'csrf', NOW);
    expect(cells(html).map((row) => row.at(-1))).toEqual(['queued', 'running']);
  });
});

const polls = (over: Partial<PollBudgetView> = {}): PollBudgetView => ({
  from: new Date('2026-01-01T10:00:00Z'),
  to: new Date(NOW),
  windowSeconds: 1_800,
  ratePerSecond: 10,
  bound: 0.1,
  earlyPolls: true,
  accounts: [],
  ...over,
});

describe('catalogCallsPage', () => {
  it('shows each minute with the share of the budget used, 429s marked', () => {
    const html = catalogCallsPage(
      {
        budgetPerMinute: 200,
        minutes: [{ minute: new Date('2026-01-01T10:01:00Z'), calls: 50, rateLimited: 2 }],
      },
      polls(),
      1,
      'csrf',
      NOW,
    );
    expect(html).toContain(
      '<tr><td><time datetime="2026-01-01T10:01:00Z" title="2026-01-01 10:01:00 UTC">29 min ago</time></td><td>50</td><td class="error">2</td><td>25 %</td></tr>',
    );
    expect(catalogCallsPage({ budgetPerMinute: 200, minutes: [] }, polls(), 1, 'csrf', NOW)).toContain(
      'None.',
    );
  });

  it("shows the enrichment poll's share of each account's budget beside its bound, a share above it marked", () => {
    const account = (id: string, early: number) => ({
      account: id,
      shops: ['a.myshopify.com'],
      polls: { schedule: 30, early: 100, admin: 1 },
      calls: { schedule: 60, early, admin: 2 },
      budgetCalls: 18_000,
      share: (60 + early) / 18_000,
      bound: 0.1,
    });
    const html = catalogCallsPage(
      { budgetPerMinute: 600, minutes: [] },
      polls({ accounts: [account('https://catalog#k1', 240), account('https://catalog#k2', 2_000)] }),
      1,
      'csrf',
      NOW,
    );
    const rows = [...html.matchAll(/<tr data-account="([^"]+)">([\s\S]*?)<\/tr>/g)];
    expect(rows.map((r) => r[1])).toEqual(['https://catalog#k1', 'https://catalog#k2']);
    expect(rows[0]?.[2]).toContain('<td data-calls="early">240 <span class="muted">(100 polls)</span></td>');
    expect(rows[0]?.[2]).toContain('<td class="share">1.67 %</td><td class="bound">10 %</td>');
    expect(rows[1]?.[2]).toContain('<td class="share error">11.44 %</td>');
    expect(html).toContain('Early polls are on');
    expect(html).toContain('(30 min)');
  });
});
