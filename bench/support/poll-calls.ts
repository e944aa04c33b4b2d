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
