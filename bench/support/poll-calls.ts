// The connector's enrichment polls over a window, from its own records (`enrichment_poll`): how
// many of its catalog calls were the poll's, not the sync's (issue 44: adaptive polling).
import type { BenchStack } from './bench-stack.js';

/** Per poll trigger: the scheduled polls, the early ones (records waiting), an operator's. */
export interface PerTrigger {
  schedule: number;
  early: number;
  admin: number;
}

/**
 * The polls of the stack's shop that started between `from` and `to` (epoch ms) and finished
 * their work, and their catalog calls (each poll's per-shop `calls`), per trigger. A failed poll
 * stores no counts: its calls are not in them.
 */
export async function pollCalls(
  stack: BenchStack,
  window: { from: number; to: number },
): Promise<{ polls: PerTrigger; calls: PerTrigger; total: number }> {
  const { rows } = await stack.db.query<{ trigger: keyof PerTrigger; polls: number; calls: number }>(
    `SELECT r.trigger, count(*)::int AS polls, COALESCE(sum((s.value->>'calls')::int), 0)::int AS calls
       FROM "${stack.schema}".enrichment_poll r, jsonb_each(r.counts->'shops') s
      WHERE r.finished_at IS NOT NULL AND r.error IS NULL AND s.key = $1
        AND r.started_at >= to_timestamp($2::double precision / 1000)
        AND r.started_at <= to_timestamp($3::double precision / 1000)
      GROUP BY r.trigger`,
    [stack.shop.domain, window.from, window.to],
  );
  const polls = { schedule: 0, early: 0, admin: 0 };
  const calls = { schedule: 0, early: 0, admin: 0 };
  for (const row of rows) {
    // A checkout before issue 44 stored early polls as scheduled ones: they count as such.
    const trigger = row.trigger in polls ? row.trigger : 'schedule';
    polls[trigger] += row.polls;
    calls[trigger] += row.calls;
  }
  return { polls, calls, total: calls.schedule + calls.early + calls.admin };
}

/**
 * The polls asked for, started or finished between `from` and `to` (epoch ms), oldest first, at
 * most `limit`: when each was asked for, started and finished (seconds from `from`; null: not
 * yet), its trigger and its calls. Shows the polls' pace through a part of a benchmark.
 */
export async function pollTimeline(
  stack: BenchStack,
  window: { from: number; to: number },
  limit = 40,
): Promise<
  Array<{
    trigger: string;
    askedS: number;
    startedS: number | null;
    finishedS: number | null;
    calls: number | null;
  }>
> {
  const { rows } = await stack.db.query<{
    trigger: string;
    asked: number;
    started: number | null;
    finished: number | null;
    calls: number | null;
  }>(
    `SELECT trigger, extract(epoch FROM requested_at) * 1000 AS asked,
            extract(epoch FROM started_at) * 1000 AS started, extract(epoch FROM finished_at) * 1000 AS finished,
            (counts->'shops'->$1->>'calls')::int AS calls
       FROM "${stack.schema}".enrichment_poll
      WHERE COALESCE(finished_at, started_at, requested_at) >= to_timestamp($2::double precision / 1000)
        AND requested_at <= to_timestamp($3::double precision / 1000)
      ORDER BY requested_at LIMIT $4`,
    [stack.shop.domain, window.from, window.to, limit],
  );
  const at = (ms: number | null) => (ms === null ? null : Math.round((Number(ms) - window.from) / 100) / 10);
  return rows.map((r) => ({
    trigger: r.trigger,
    askedS: at(r.asked) as number,
    startedS: at(r.started),
    finishedS: at(r.finished),
    calls: r.calls,
  }));
}
