// The merchant's edits of `freshness` and how long each takes to reach a system's catalog account.
import type { BenchStack } from './bench-stack.js';
import { quantile, round, sleep } from './figures.js';
import { editSeq, editTitle, recordValue, type System } from './freshness-shop.js';

/** One merchant edit and when the catalog held it. */
export interface Edit {
  productId: number;
  seq: number;
  /** performance.now() and Date.now() when the merchant API answered the save. */
  savedAt: number | null;
  savedAtEpoch: number | null;
  /** performance.now() and Date.now() when the system's record first held this edit's title (or a later one). */
  seenAt: number | null;
  seenAtEpoch: number | null;
}

export interface EditRun {
  edits: Edit[];
  /** Epoch ms of the first edit sent and of the last save answered: the window the edits took. */
  startedAtEpoch: number;
  savedUntilEpoch: number;
}

/**
 * Sends one title change per product of `productIds` through the merchant REST API, one every
 * `spacingMs` (open loop: the next one does not wait for the last answer), each with edit number
 * `seq` in its title, and waits until `system`'s catalog account holds every one, or
 * `timeoutMs` after the last save. An edit counts as held when the record's `name` carries its
 * number or a later one. The catalog is read in-process every 20 ms (`recordValue`): no `/v1`
 * call. Latency: from the merchant API's answer to the first read that holds it.
 */
export async function runEdits(
  stack: BenchStack,
  options: {
    system: System;
    productIds: readonly number[];
    seq: number;
    spacingMs: number;
    timeoutMs: number;
  },
): Promise<EditRun> {
  const edits: Edit[] = options.productIds.map((productId) => ({
    productId,
    seq: options.seq,
    savedAt: null,
    savedAtEpoch: null,
    seenAt: null,
    seenAtEpoch: null,
  }));
  let sending = true;
  let deadline = Number.POSITIVE_INFINITY;
  const watcher = (async () => {
    for (;;) {
      const open = edits.filter((e) => e.seenAt === null);
      for (const edit of open) {
        if (editSeq(recordValue(stack, options.system, edit.productId, 'name')) >= edit.seq) {
          edit.seenAt = performance.now();
          edit.seenAtEpoch = Date.now();
        }
      }
      if (!sending && (edits.every((e) => e.seenAt !== null) || performance.now() > deadline)) return;
      await sleep(20);
    }
  })();
  const startedAtEpoch = Date.now();
  const t0 = performance.now();
  const saves: Array<Promise<void>> = [];
  try {
    for (const [i, edit] of edits.entries()) {
      const wait = i * options.spacingMs - (performance.now() - t0);
      if (wait > 1) await sleep(wait);
      saves.push(
        stack
          .merchant('PUT', `products/${edit.productId}.json`, {
            product: { id: edit.productId, title: editTitle(edit.productId, edit.seq) },
          })
          .then(() => {
            edit.savedAt = performance.now();
            edit.savedAtEpoch = Date.now();
          }),
      );
    }
    await Promise.all(saves);
    deadline = performance.now() + options.timeoutMs;
  } finally {
    // A failed save ends the watch at once (the error goes up).
    if (deadline === Number.POSITIVE_INFINITY) deadline = 0;
    sending = false;
  }
  const savedUntilEpoch = Date.now();
  await watcher;
  return { edits, startedAtEpoch, savedUntilEpoch };
}

/** Latency figures of a part: p50, p95 and max in ms, against its target (p95). */
export interface LatencyFigures {
  count: number;
  /** Measured but never seen within the wait: the percentiles are then null (not met). */
  unseen: number;
  p50Ms: number | null;
  p95Ms: number | null;
  maxMs: number | null;
  targetP95Ms: number | null;
  targetMet: boolean | null;
}

/** p50 / p95 / max of latencies in ms (null where one was never seen), against a p95 target. */
export function latencyFigures(
  latencies: ReadonlyArray<number | null>,
  targetP95Ms: number | null,
): LatencyFigures {
  const seen = latencies.filter((l): l is number => l !== null);
  const unseen = latencies.length - seen.length;
  const at = (q: number) => (seen.length === 0 || unseen > 0 ? null : round(quantile(seen, q), 0));
  const p95Ms = at(0.95);
  return {
    count: latencies.length,
    unseen,
    p50Ms: at(0.5),
    p95Ms,
    maxMs: unseen > 0 || seen.length === 0 ? null : round(Math.max(...seen), 0),
    targetP95Ms,
    targetMet: targetP95Ms === null ? null : p95Ms !== null && p95Ms <= targetP95Ms,
  };
}

/** Each edit's save-to-catalog latency in ms (null: never seen). */
export function editLatencies(run: EditRun): Array<number | null> {
  return run.edits.map((e) =>
    e.savedAt === null || e.seenAt === null ? null : Math.max(0, e.seenAt - e.savedAt),
  );
}

/**
 * Which sync run applied each edit, from the connector's sync records: the last run of the
 * product that started before the catalog held the edit (a `webhook` run of its own, or the
 * `resync` job of the product the delivery joined). Latencies per reason.
 */
export async function appliedBy(
  stack: BenchStack,
  run: EditRun,
  targetP95Ms: number,
): Promise<Record<string, LatencyFigures>> {
  const { rows } = await stack.db.query<{ product_id: string; reason: string; started: number }>(
    `SELECT product_id::text, reason, extract(epoch FROM started_at) * 1000 AS started
       FROM "${stack.schema}".sync_records
      WHERE shop = $1 AND product_id = ANY($2::bigint[]) AND started_at >= to_timestamp($3::double precision / 1000)
      ORDER BY started_at`,
    [stack.shop.domain, run.edits.map((e) => String(e.productId)), run.startedAtEpoch],
  );
  const groups = new Map<string, Array<number | null>>();
  const latencies = editLatencies(run);
  for (const [i, edit] of run.edits.entries()) {
    const runs = rows.filter(
      (r) =>
        r.product_id === String(edit.productId) &&
        (edit.seenAtEpoch === null || Number(r.started) <= edit.seenAtEpoch),
    );
    const reason = edit.seenAtEpoch === null ? 'never seen' : (runs.at(-1)?.reason ?? 'unknown');
    groups.set(reason, [...(groups.get(reason) ?? []), latencies[i] ?? null]);
  }
  return Object.fromEntries(
    [...groups].map(([reason, values]) => [reason, latencyFigures(values, targetP95Ms)]),
  );
}
