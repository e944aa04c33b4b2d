const recorded = new WeakSet<Error>();

/**
 * Marks the error a job ends with once its failure is in the failures table (the job guard did
 * it), so the recorder of jobs failed outside the guard does not count it a second time.
 */
export function markRecorded<E extends Error>(error: E): E {
  recorded.add(error);
  return error;
}

/** Whether the job's failure was recorded already (see `markRecorded`). */
export function wasRecorded(error: unknown): boolean {
  return error instanceof Error && recorded.has(error);
}
