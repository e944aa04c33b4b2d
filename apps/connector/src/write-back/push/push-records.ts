import type { WriteBackPlan } from '../decide/write-back-plan.js';
import type { WriteOutcome } from '../shopify/execute-write-back.js';
import type { PushRecord, PushStateChanges } from '../store/write-back-states.repository.js';

/** What a plan stores before any write: settled intents, conflicts, unfit values, the new intents. */
export function planRecords(
  plan: WriteBackPlan,
): Required<Pick<PushStateChanges, 'states' | 'intents' | 'history'>> {
  const ref = (r: { ownerId: string; attribute: string; key: string }) => ({
    ownerId: r.ownerId,
    attribute: r.attribute,
    target: r.key,
  });
  const history: PushRecord[] = [
    ...plan.settled.map((s) => ({
      ...ref(s.ref),
      purpose: 'settle' as const,
      valueHash: s.next.valueHash,
      result: 'landed' as const,
      errors: [s.why],
    })),
    ...plan.conflicts.map((c) => ({
      ...ref(c.ref),
      purpose: 'conflict' as const,
      valueHash: c.next.valueHash,
      result: 'conflict' as const,
      errors: [c.detail],
    })),
    ...plan.failures.map((f) => ({
      ...ref(f.ref),
      purpose: 'push' as const,
      valueHash: null,
      result: 'unfit' as const,
      errors: [f.reason],
    })),
  ];
  return {
    states: [...plan.settled.map((s) => s.next), ...plan.conflicts.map((c) => c.next)],
    intents: plan.writes.map((w) => w.next),
    history,
  };
}

/** What the outcomes store: confirmed states, refused intents dropped, one history entry each. */
export function outcomeRecords(
  outcomes: readonly WriteOutcome[],
): Required<Pick<PushStateChanges, 'states' | 'dropIntents' | 'history'>> {
  return {
    states: outcomes.filter((o) => o.ok).map((o) => o.write.next),
    dropIntents: outcomes.filter((o) => !o.ok && o.kind === 'rejected').map((o) => o.write.next),
    history: outcomes.map(
      (o): PushRecord => ({
        ownerId: o.write.ref.ownerId,
        attribute: o.write.ref.attribute,
        target: o.write.ref.key,
        purpose: o.write.purpose,
        valueHash: o.write.next.valueHash,
        result: o.ok ? 'ok' : o.kind,
        errors: o.ok ? [] : o.errors,
      }),
    ),
  };
}
