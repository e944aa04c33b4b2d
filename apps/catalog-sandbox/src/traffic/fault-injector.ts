import { seededRandom } from '#lib/seeded-random';
import { FAULT_KINDS, type FaultKind, type FaultPlan, type FaultRule } from './fault-plan.js';

/**
 * One account's injected faults: which rule triggers for a request, with seeded random draws
 * (repeatable runs), remaining counts, and how many times each kind was injected.
 */
export class FaultInjector {
  private plan: FaultPlan = {};
  private remaining = new Map<FaultKind, number>();
  private random: () => number = seededRandom(1);
  private readonly injected: Record<FaultKind, number> = {
    error500: 0,
    burst429: 0,
    latency: 0,
    commitThenDrop: 0,
  };

  set(plan: FaultPlan): void {
    this.plan = plan;
    this.random = seededRandom(plan.seed ?? 1);
    this.remaining = new Map();
    for (const kind of FAULT_KINDS) {
      const count = plan[kind]?.count;
      if (count !== undefined) this.remaining.set(kind, count);
    }
  }

  clear(): void {
    this.set({});
  }

  get current(): FaultPlan {
    return this.plan;
  }

  /** Remaining triggers per kind (null: unlimited), and how many were injected so far. */
  report() {
    const remaining: Partial<Record<FaultKind, number | null>> = {};
    for (const kind of FAULT_KINDS) if (this.plan[kind]) remaining[kind] = this.remaining.get(kind) ?? null;
    return { plan: this.plan, remaining, injected: { ...this.injected } };
  }

  resetCounters(): void {
    for (const kind of FAULT_KINDS) this.injected[kind] = 0;
  }

  /** Whether the fault of this kind triggers for this request; spends one of its count. */
  triggers(kind: FaultKind, method: string, path: string): boolean {
    const rule: FaultRule | undefined = this.plan[kind];
    if (!rule || !matches(rule, method, path)) return false;
    const left = this.remaining.get(kind);
    if (left !== undefined && left <= 0) return false;
    if ((rule.probability ?? 1) < 1 && this.random() >= (rule.probability ?? 1)) return false;
    if (left !== undefined) this.remaining.set(kind, left - 1);
    this.injected[kind] += 1;
    return true;
  }
}

function matches(rule: FaultRule, method: string, path: string): boolean {
  if (rule.method && rule.method.toUpperCase() !== method.toUpperCase()) return false;
  if (!rule.path) return true;
  return rule.path.endsWith('*') ? path.startsWith(rule.path.slice(0, -1)) : path === rule.path;
}
