import { Injectable } from '@nestjs/common';

/** One kind of rows that grows with time and may be deleted once old enough. */
export interface PrunableTable {
  /** Shown in logs and the retention job's result, e.g. `inbox`, `push_history`. */
  name: string;
  /** Rows older than this (ms) are pruned. */
  ageMs: number;
  /**
   * Deletes the rows older than `before` (in batches: a year of rows must not be one
   * statement); resolves to how many went. Tombstones and the map are never registered.
   */
  prune(before: Date): Promise<number>;
}

/**
 * The tables the retention job prunes. Each owner registers its own at module init (the inbox,
 * the sync records, the write-back history...), so the job, an operations concern, never has to
 * know a stage's tables, and stages never import operations. The names and their owners are
 * listed in `HOUSEKEEPING` (housekeeping.ts), checked at boot.
 */
@Injectable()
export class RetentionRegistry {
  private readonly tables = new Map<string, PrunableTable>();

  register(table: PrunableTable): void {
    if (this.tables.has(table.name)) throw new Error(`Retention of ${table.name} is registered twice`);
    this.tables.set(table.name, table);
  }

  all(): PrunableTable[] {
    return [...this.tables.values()];
  }
}

/** Batch size of `pruneInBatches`: short statements, short locks. */
export const PRUNE_BATCH = 5_000;

/**
 * Runs `deleteBatch` (a `DELETE ... WHERE id IN (SELECT ... LIMIT $n)` returning a count) until a
 * batch deletes fewer than `PRUNE_BATCH` rows; resolves to the total.
 */
export async function pruneInBatches(deleteBatch: (limit: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteBatch(PRUNE_BATCH);
    total += deleted;
    if (deleted < PRUNE_BATCH) return total;
  }
}
