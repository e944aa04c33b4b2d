import type { Housekeeping } from '../reporting/housekeeping.js';
import type { QueueFlow } from './queue-flow.js';

/** What the registries hold once every module has started. */
export interface Registrations {
  /** The job kinds with a replay handler (`ReplayRegistry.kinds`). */
  replayKinds: readonly string[];
  /** The names the retention job prunes (`RetentionRegistry.all()`). */
  pruned: readonly string[];
  /** Each shop-data owner's tables, as registered (`ShopDataRegistry.groups()`). */
  redacted: ReadonlyArray<readonly string[]>;
}

const groupKey = (tables: readonly string[]) => [...tables].sort().join(', ');

/**
 * Why the registries and the tables that list them disagree, both ways: a replay handler for a
 * queue the flow table gives no `replayBy`, or a `replayBy` with no handler; a pruned table or a
 * shop-data owner's tables (as one group) that `HOUSEKEEPING` does not list, or one it lists that
 * nobody registered. Empty when all is well.
 */
export function registrationProblems(
  flow: readonly QueueFlow[],
  housekeeping: Housekeeping,
  registered: Registrations,
): string[] {
  const problems: string[] = [];
  const replayed = flow.filter((row) => row.replayBy !== null);
  for (const kind of registered.replayKinds) {
    if (!replayed.some((row) => row.queue === kind))
      problems.push(`a replay handler is registered for "${kind}", which the flow table gives no replayBy`);
  }
  for (const row of replayed) {
    if (!registered.replayKinds.includes(row.queue))
      problems.push(
        `${row.replayBy} registers no replay handler for "${row.queue}" (the flow table's replayBy)`,
      );
  }
  for (const name of registered.pruned) {
    if (!housekeeping.pruned.some((row) => row.name === name))
      problems.push(`retention prunes "${name}", which housekeeping.ts does not list`);
  }
  for (const row of housekeeping.pruned) {
    if (!registered.pruned.includes(row.name))
      problems.push(`${row.owner} registers no retention of "${row.name}" (housekeeping.ts lists it)`);
  }
  const listed = housekeeping.redacted.map((row) => groupKey(row.tables));
  const held = registered.redacted.map(groupKey);
  for (const group of held) {
    if (!listed.includes(group))
      problems.push(`shop data of ${group} is registered, which housekeeping.ts lists as no owner's tables`);
  }
  for (const row of housekeeping.redacted) {
    if (!held.includes(groupKey(row.tables)))
      problems.push(
        `${row.owner} registers no shop data of ${groupKey(row.tables)} (housekeeping.ts lists it)`,
      );
  }
  return problems;
}
