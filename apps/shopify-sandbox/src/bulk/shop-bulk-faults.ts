import type { BulkFaults } from './bulk-operation.js';

/** Faults as the control API sets them: a value, or `null` for the configuration's. */
export type BulkFaultsChange = { [K in keyof BulkFaults]?: BulkFaults[K] | null };

/** Faults set for a number of operations, and how many of those operations are still to start. */
export type BulkFaultsForRuns = BulkFaultsChange & { runsLeft: number };

/** What the control API shows of a shop's bulk faults. */
export interface BulkFaultsState {
  /** What the shop's next operation gets. */
  faults: BulkFaults;
  /** Faults set for the next operations only (`runs`), oldest first. */
  nextRuns: BulkFaultsForRuns[];
}

const KEYS = ['failHalfway', 'urlTtlMs'] as const;

/**
 * One shop's bulk faults: the configuration's switches, overridden until further notice
 * (`PUT bulk-faults` without `runs`), and overridden again for the next few operations only
 * (with `runs`), so a test can break exactly the operation an app starts next and let its retry
 * work, without racing the app to mend the fault. A new operation takes its faults once
 * (`take`) and keeps them: changing the shop's faults later does not change a run.
 */
export class ShopBulkFaults {
  private permanent: Partial<BulkFaults> = {};
  private forRuns: BulkFaultsForRuns[] = [];

  constructor(private readonly configured: BulkFaults) {}

  state(): BulkFaultsState {
    return { faults: this.next(), nextRuns: this.forRuns.map((entry) => ({ ...entry })) };
  }

  /**
   * Merges `change` into the lasting overrides or, with `runs`, sets it for the next `runs`
   * operations (on top of the lasting ones and of earlier `runs` sets, which keep counting).
   */
  set(change: BulkFaultsChange, runs?: number): BulkFaultsState {
    if (runs !== undefined) {
      this.forRuns.push({ ...pick(change), runsLeft: runs });
      return this.state();
    }
    const merged: Partial<BulkFaults> = { ...this.permanent };
    for (const key of KEYS) {
      const value = change[key];
      if (value === null) delete merged[key];
      else if (value !== undefined) Object.assign(merged, { [key]: value });
    }
    this.permanent = merged;
    return this.state();
  }

  /** The faults of an operation that starts now; counts it against the `runs` sets. */
  take(): BulkFaults {
    const faults = this.next();
    for (const entry of this.forRuns) entry.runsLeft -= 1;
    this.forRuns = this.forRuns.filter((entry) => entry.runsLeft > 0);
    return faults;
  }

  private next(): BulkFaults {
    const faults: BulkFaults = { ...this.configured, ...this.permanent };
    for (const entry of this.forRuns) {
      for (const key of KEYS) {
        const value = entry[key];
        if (value === null) Object.assign(faults, { [key]: this.configured[key] });
        else if (value !== undefined) Object.assign(faults, { [key]: value });
      }
    }
    return faults;
  }
}

/** Only the fault keys of a change (never `runsLeft` or anything else). */
function pick(change: BulkFaultsChange): BulkFaultsChange {
  const picked: BulkFaultsChange = {};
  for (const key of KEYS) if (change[key] !== undefined) Object.assign(picked, { [key]: change[key] });
  return picked;
}
